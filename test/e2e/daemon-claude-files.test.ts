// Files with the real Claude Code: its Bash tool runs `larkmux where`/`send` inside the pane (identity by tty).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFailed } from 'vitest';
import { buttons, markdownText, textsIn } from '../support/cards.js';
import { disposeClaudeWorld, startClaudeWorld, type ClaudeWorld } from '../support/claude-world.js';
import { skipWithoutCli } from '../support/clis.js';
import { ROOT } from '../support/larkmux-cli.js';

const LARKMUX = `${process.execPath} ${join(ROOT, 'bin', 'larkmux.js')}`;

describe.skipIf(skipWithoutCli('claude'))('daemon + real Claude Code: files', () => {
  let world: ClaudeWorld | undefined;
  afterEach(async () => {
    if (!world) return;
    await disposeClaudeWorld(world);
    world = undefined;
  });

  it("Claude's Bash tool is in the pane: `larkmux where` names the session and `larkmux send` posts a file into the topic", async () => {
    // Bash allowed outright: auto mode's server-side safety check cannot run against the fake model.
    world = await startClaudeWorld({ askPermissions: false, settings: { permissions: { defaultMode: 'default', allow: ['Bash'] } } });
    const { rig, cwd } = world;
    onTestFailed(() => {
      process.stderr.write(`${JSON.stringify(rig.fake.messages.filter((m) => m.msgType === 'text').map((m) => m.content))}\n`);
    });
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    // The first message starts Claude; its auto-mode offer may swallow that turn, so the tool call comes after.
    const first = await fake.injectMessage({ chatType: 'p2p', text: 'hello' });
    const chatId = first.chatId;
    // Claude first offers auto mode (a selection card with no safe default): keep manual mode, Bash is allowed anyway.
    const offer = await fake.waitFor(() => fake.messages.find((m) => m.chatId === chatId && m.msgType === 'interactive' && buttons(m.content).some((b) => /keep manual mode/i.test(b))), 90_000, 'mode offer card');
    await fake.tapButton(offer.messageId, buttons(offer.content).find((b) => /keep manual mode/i.test(b))!);
    await fake.waitFor(() => markdownText(offer.content).includes('Answered by'), 20_000, 'offer answered');
    await fake.injectMessage({ chatType: 'p2p', chatId, text: `RUN_TOOL: ${LARKMUX} where` });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('tool said')), 120_000, 'where through the Bash tool').catch(async (e) => {
      const panes = await rig.tmux.run(['list-panes', '-a', '-F', '#{session_name}']);
      for (const p of panes.stdout.trim().split('\n')) process.stderr.write(`--- ${p}\n${(await rig.tmux.run(['capture-pane', '-p', '-t', p])).stdout}\n`);
      process.stderr.write(rig.logText().split('\n').slice(-25).join('\n'));
      throw e;
    });
    const [session] = (await rig.status()).sessions;
    expect(textsIn(fake, appId, chatId).find((t) => t.includes('tool said'))).toContain(session.id);

    writeFileSync(join(cwd, 'notes.txt'), 'from claude\n');
    await fake.injectMessage({ chatType: 'p2p', chatId, text: `RUN_TOOL: ${LARKMUX} send notes.txt` });
    await fake.waitFor(() => fake.messages.some((m) => m.chatId === chatId && m.msgType === 'file'), 120_000, 'file message');
    expect(fake.fileUploads.at(-1)?.bytes.toString('utf8')).toBe('from claude\n');
  }, 300_000);
});
