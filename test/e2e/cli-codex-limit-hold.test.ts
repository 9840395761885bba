// Issue 30 item 3 end to end: the real daemon, the fake Feishu and the real Codex against its fake model server. The
// fake refuses the first prompt with Codex's usage limit (cue `USAGE-LIMIT 90`, reset in 25 real seconds); the daemon
// holds the session. A second prompt sent during the hold is not typed (Codex's own rollout does not have it) and its
// person is told it waits; after the reset (real seconds, Codex shows it to the minute, plus the hold's jitter) the
// held prompt reaches Codex exactly once, after the one "continue", with the "hold is over" notice.
import { describe, expect, it, onTestFinished } from 'vitest';
import { buttons, markdownText } from '../support/cards.js';
import { disposeClaudeWorld, startCodexWorld } from '../support/claude-world.js';
import { skipWithoutCli } from '../support/clis.js';
import { codexPrompts } from '../support/codex-rollout.js';
import { heldPromptAnsweredOnce, runIntoLimitHold } from '../support/limit-hold.js';

describe.skipIf(skipWithoutCli('codex'))('daemon + real Codex: a usage limit holds prompts', () => {
  it('says limited until hh:mm and mentions the asker; a prompt during the hold waits, then reaches Codex once', async () => {
    const world = await startCodexWorld({ bot: { locale: 'en' } });
    onTestFinished(() => disposeClaudeWorld(world));
    const prompts = () => codexPrompts(world.home).map((p) => p.text);
    const hold = await runIntoLimitHold(world, prompts, 180_000);
    const { fake, appId, held, texts, waitFor } = hold;
    expect(prompts()).toEqual([hold.hit]);

    await waitFor(() => texts().some((t) => t.includes('The hold is over')), 180_000, 'the hold is over');
    // Codex's "Switch to gpt-…?" menu came up with the limit, on a selection card that mentions the asker; a hold never
    // answers it. While it stands the released prompts wait in the worker (not typed into the menu: without the tap
    // below nothing reaches the rollout). The person keeps the current model on the card; then they go, once each.
    const menu = fake.messages.find((m) => m.appId === appId && m.msgType === 'interactive' && markdownText(m.content).includes('Keep current model'));
    if (!menu) throw new Error('no menu card');
    expect(prompts()).not.toContain(held);
    const keep = buttons(menu.content).find((b) => b.includes('2'));
    if (!keep) throw new Error(`no "2" on the menu card: ${JSON.stringify(buttons(menu.content))}`);
    await fake.tapButton(menu.messageId, keep);
    await heldPromptAnsweredOnce(hold, prompts);
  }, 600_000);
});
