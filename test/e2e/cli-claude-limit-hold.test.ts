// Issue 30 item 3 end to end with Claude Code: the real daemon, the fake Feishu and the real Claude Code against its
// fake model server, which refuses the first prompt with the 5-hour usage limit (cue `USAGE-LIMIT 90`: a 429 with the
// unified limiter's headers, resetting 90 real seconds later). Claude retries a 429 ten times over about 2½ minutes by
// default; `CLAUDE_CODE_MAX_RETRIES` (read by the pinned 2.1.332, a test-only setting here, in the bot's `env`) makes
// it give up after three. The daemon holds the session: a prompt sent during the hold is not in Claude's transcript
// and its person is told it waits; after the reset (the end of the minute Claude shows, plus the hold's jitter) the
// one "continue" goes, then the held prompt, exactly once each.
import { describe, expect, it, onTestFinished } from 'vitest';
import { transcriptPrompts } from '../support/claude-busy.js';
import { disposeClaudeWorld, startClaudeWorld } from '../support/claude-world.js';
import { skipWithoutCli } from '../support/clis.js';
import { heldPromptAnsweredOnce, runIntoLimitHold } from '../support/limit-hold.js';

describe.skipIf(skipWithoutCli('claude'))('daemon + real Claude Code: a usage limit holds prompts', () => {
  it('says limited until hh:mm and mentions the asker; a prompt during the hold waits, then reaches Claude once after one "continue"', async () => {
    const world = await startClaudeWorld({ askPermissions: false, bot: { locale: 'en' }, cliEnv: { CLAUDE_CODE_MAX_RETRIES: '3' } });
    onTestFinished(() => disposeClaudeWorld(world));
    const prompts = () => transcriptPrompts(world.home);
    const hold = await runIntoLimitHold(world, prompts, 120_000);
    // The setting took: Claude counts its attempts out of 3, not its default 10 (the worker logs the line it read).
    expect(world.rig.logText()).toMatch(/5-hour limit reached · retrying in \d+s \(\d{1,2}:\d{2}[ap]m\) · attempt \d\/3\b/);
    expect(world.rig.logText()).not.toMatch(/attempt \d+\/10\b/);
    expect(prompts().filter((t) => t === hold.hit)).toHaveLength(1);

    await hold.waitFor(() => hold.texts().some((t) => t.includes('The hold is over')), 240_000, 'the hold is over');
    await heldPromptAnsweredOnce(hold, prompts);
    expect(prompts().filter((t) => t === hold.hit)).toHaveLength(1);
  }, 600_000);
});
