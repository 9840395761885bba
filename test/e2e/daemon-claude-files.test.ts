// Files with the real Claude Code: its Bash tool runs `larkmux where`/`send` inside the pane (identity by tty), typed
// as plain `larkmux`: the pane's PATH and bash function find this installation (issue 32 item 2).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFailed } from 'vitest';
import { buttons, markdownText, textsIn } from '../support/cards.js';
import { disposeClaudeWorld, startClaudeWorld, type ClaudeWorld } from '../support/claude-world.js';
import { skipWithoutCli } from '../support/clis.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5b1b6e30000000049454e44ae426082', 'hex');

describe.skipIf(skipWithoutCli('claude'))('daemon + real Claude Code: files', () => {
  let world: ClaudeWorld | undefined;
  afterEach(async () => {
    if (!world) return;
    await disposeClaudeWorld(world);
    world = undefined;
  });

  it("Claude's Bash tool is in the pane (`larkmux where`, `larkmux send`), and a picture from the chat reaches Claude", async () => {
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
    await fake.injectMessage({ chatType: 'p2p', chatId, text: 'RUN_TOOL: larkmux where' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('tool said')), 120_000, 'where through the Bash tool').catch(async (e) => {
      const panes = await rig.tmux.run(['list-panes', '-a', '-F', '#{session_name}']);
      for (const p of panes.stdout.trim().split('\n')) process.stderr.write(`--- ${p}\n${(await rig.tmux.run(['capture-pane', '-p', '-t', p])).stdout}\n`);
      process.stderr.write(rig.logText().split('\n').slice(-25).join('\n'));
      throw e;
    });
    const [session] = (await rig.status()).sessions;
    expect(textsIn(fake, appId, chatId).find((t) => t.includes('tool said'))).toContain(session.id);

    writeFileSync(join(cwd, 'notes.txt'), 'from claude\n');
    await fake.injectMessage({ chatType: 'p2p', chatId, text: 'RUN_TOOL: larkmux send notes.txt' });
    await fake.waitFor(() => fake.messages.some((m) => m.chatId === chatId && m.msgType === 'file'), 120_000, 'file message');
    expect(fake.fileUploads.at(-1)?.bytes.toString('utf8')).toBe('from claude\n');

    // A picture from the chat reaches Claude as @path: the model receives the picture (or its path), and the
    // message gets the delivered reaction.
    const imgMsgId = `om_claude_img_${Date.now().toString(16)}`;
    fake.addResource(imgMsgId, 'img_v3_fake_claude', 'image', PNG);
    const before = world.fake.requests.length;
    await fake.injectMessage({ chatType: 'p2p', chatId, messageId: imgMsgId, messageType: 'image', content: JSON.stringify({ image_key: 'img_v3_fake_claude' }) });
    await fake.waitFor(() => fake.reactions.some((r) => r.messageId === imgMsgId), 120_000, 'delivered reaction on the picture');
    const seen = () => world!.fake.requests.slice(before).map((r) => JSON.stringify(r.body)).find((b) => b.includes('"type":"image"') || b.includes('.larkmux/uploads/'));
    const body = await fake.waitFor(seen, 120_000, 'the model received the picture');
    expect(body).toMatch(/"type":"image"|\.larkmux\/uploads\/\d{4}-\d{2}-\d{2}\/[^"]*\.png/);
  }, 400_000);
});
