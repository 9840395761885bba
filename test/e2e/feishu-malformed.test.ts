// Malformed and hostile input against the real daemon: a clear reply or a log line, never a crash; hostile text arrives literally.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hexId } from '../support/fake-feishu/envelopes.js';
import { cardsFor, textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';
import type { FakeFeishu } from '../support/fake-feishu/index.js';

/** Text messages the bot sent in reply to one message. */
function repliesTo(fake: FakeFeishu, messageId: string): string[] {
  return fake.messages.filter((m) => m.parentId === messageId && m.msgType === 'text').map((m) => String((m.content as { text?: unknown }).text ?? ''));
}

/** The daemon that answered first is still the one running, and still connected. */
async function expectAlive(rig: E2eRig, pid: number): Promise<void> {
  const st = await rig.status();
  expect(st).toMatchObject({ running: true, pid });
  expect(st.bots[0]).toMatchObject({ state: 'connected' });
}

/** A schema-2.0 envelope whose event body is whatever the test says. */
function envelope(appId: string, eventType: string, event: unknown): string {
  return JSON.stringify({
    schema: '2.0',
    header: { event_id: hexId(16), token: 'fake-verification-token', create_time: String(Date.now()), event_type: eventType, tenant_key: 'fake', app_id: appId },
    event,
  });
}

describe('malformed and hostile events against the real daemon', () => {
  let rig: E2eRig | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
  });

  it('malformed events get a clear reply or a log line, never a crash; a normal message still works', async () => {
    rig = await startRig();
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const { pid } = await rig.status();
    const warm = await fake.injectMessage({ chatType: 'p2p', text: 'echo warm-$((1+2))' });
    const chatId = warm.chatId;
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('warm-3')), 30_000, 'first answer');
    const card = cardsFor(fake, appId, warm.messageId)[0]!;

    // Frames that are not events the daemon reads: not JSON at all, an unknown event type, message events missing fields.
    await fake.injectRaw('this is not json {');
    await fake.injectRaw(envelope(appId, 'im.chat.member.bot.added_v1', { chat_id: 'oc_x' }));
    await fake.injectRaw(envelope(appId, 'im.message.receive_v1', {}));
    await fake.injectRaw(envelope(appId, 'im.message.receive_v1', { sender: { sender_id: { open_id: fake.defaultUser }, sender_type: 'user' }, message: { message_id: 'om_nochat', message_type: 'text', content: '{"text":"hi"}' } }));
    await fake.injectRaw(envelope(appId, 'im.message.receive_v1', { sender: { sender_id: {}, sender_type: 'user' }, message: { message_id: 'om_nosender', chat_id: chatId, chat_type: 'p2p', message_type: 'text', content: '{"text":"hi"}' } }));
    await expectAlive(rig, pid);
    expect(rig.logText()).toContain('malformed message event');
    expect(rig.logText()).toContain('sender has no open_id');

    // Content that is not JSON, and a text message without "text": a clear reply, or at least a log line naming the message.
    for (const content of ['{"text": "unterminated', '{"foo":1}']) {
      const bad = await fake.injectMessage({ chatType: 'p2p', chatId, content });
      await fake.waitFor(() => rig!.logText().includes(bad.messageId), 10_000, 'log line for the unreadable message');
      expect(rig.logText()).toMatch(/inbound event rejected/);
      for (const reply of repliesTo(fake, bad.messageId)) expect(reply).toMatch(/could not read that message/i);
      expect(cardsFor(fake, appId, bad.messageId)).toHaveLength(0);
    }

    // Message types other than text, pictures and files (those are saved for the CLI: attachments-in.test.ts):
    // a reply that says only text is passed on, naming the type.
    const others: Array<[string, unknown]> = [
      ['sticker', { file_key: 'file_v3_sticker' }],
      ['audio', { file_key: 'file_v3_audio', duration: 2000 }],
    ];
    for (const [messageType, content] of others) {
      const m = await fake.injectMessage({ chatType: 'p2p', chatId, messageType, content: JSON.stringify(content) });
      const [reply] = await fake.waitFor(() => (repliesTo(fake, m.messageId).length ? repliesTo(fake, m.messageId) : null), 10_000, `reply to the ${messageType}`);
      expect(reply).toMatch(/only pass text/i);
      expect(reply).toContain(messageType);
      expect(cardsFor(fake, appId, m.messageId)).toHaveLength(0);
    }

    // Card taps with values that are not ours, or name a session that does not exist: a toast, nothing else.
    for (const value of ['garbage', { action: 'explode' }, { action: 'key', key: 'rm -rf /' }, 42, null]) {
      const tap = await fake.injectCardAction({ messageId: card.messageId, chatId, value });
      expect(JSON.stringify(tap.response)).toMatch(/no longer active/);
    }
    const ghost = await fake.injectCardAction({ messageId: card.messageId, chatId, value: { action: 'key', sessionId: 'no-such-session', key: 'ctrl_c' } });
    expect(JSON.stringify(ghost.response)).toMatch(/no longer exists/);
    await fake.injectRaw(envelope(appId, 'card.action.trigger', { operator: {}, action: {} }));

    await expectAlive(rig, pid);
    const after = await fake.injectMessage({ chatType: 'p2p', chatId, text: 'echo still-alive-$((6*6))' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('still-alive-36')), 30_000, 'normal answer afterwards');
    expect(cardsFor(fake, appId, after.messageId)).toHaveLength(1);
    const st = await rig.status();
    expect(st.sessions).toHaveLength(1);
  });

  it('hostile text (key names, quotes, $(…), backticks, CJK, emoji) and a 200 KB message reach the shell literally', async () => {
    rig = await startRig();
    await rig.start();
    const { fake, home } = rig;
    const appId = rig.appIds[0]!;
    const { pid } = await rig.status();
    const history = join(home.dir, 'history.txt');
    const pwned = join(home.dir, 'pwned');
    const keyName = 'C-c';
    const hostile = `# Enter Escape C-d 'single' "double" $(touch ${pwned}) \`touch ${pwned}\` \\n \\ ; | & 100%s {a,b} ~ 中文字符 😀🚀 end`;

    // The shell logs every command line it is given, as it got it (single lines are typed with send-keys -l).
    const logger = await fake.injectMessage({ chatType: 'p2p', text: `HISTCONTROL=; HISTIGNORE=; PROMPT_COMMAND='fc -ln -1 >> ${history}'` });
    const chatId = logger.chatId;
    // A message that is just a tmux key name, then a comment line full of shell and tmux syntax (one session: in order).
    for (const text of [keyName, hostile]) await fake.injectMessage({ chatType: 'p2p', chatId, text });
    const logged = () => (existsSync(history) ? readFileSync(history, 'utf8').split('\n').filter(Boolean).map((l) => l.replace(/^\t ?/, '')) : []);
    await fake.waitFor(() => logged().includes(hostile) || null, 30_000, 'hostile line logged');
    expect(logged().slice(-2)).toEqual([keyName, hostile]);

    // A multi-line message is one paste: a quoted heredoc writes its body verbatim.
    const block = join(home.dir, 'block.txt');
    const body = [hostile, `second line ${keyName} Enter`, '缩进 and a backslash-t stays as typed: a\\tb'].join('\n');
    await fake.injectMessage({ chatType: 'p2p', chatId, text: `cat > ${block} <<'LMX_EOF'\n${body}\nLMX_EOF` });
    await fake.waitFor(() => existsSync(block) && readFileSync(block, 'utf8').includes('a\\tb'), 30_000, 'heredoc written');
    expect(readFileSync(block, 'utf8')).toBe(`${body}\n`);

    // 200 KB in one message (more than Feishu itself allows): it arrives fragmented, and the shell gets every byte.
    const huge = join(home.dir, 'huge.txt');
    const row = `row C-c 'q' "d" $(x) \`y\` 中文 😀 ${'x'.repeat(40)}`;
    const rows: string[] = [];
    for (let i = 0; rows.join('\n').length < 200_000; i++) rows.push(`${i} ${row}`);
    const hugeBody = rows.join('\n');
    await fake.injectMessage({ chatType: 'p2p', chatId, text: `cat > ${huge} <<'LMX_EOF'\n${hugeBody}\nLMX_EOF` });
    await fake.waitFor(() => existsSync(huge) && readFileSync(huge, 'utf8').length >= hugeBody.length, 60_000, 'huge heredoc written');
    expect(readFileSync(huge, 'utf8')).toBe(`${hugeBody}\n`);

    expect(existsSync(pwned)).toBe(false);
    await expectAlive(rig, pid);
    await fake.injectMessage({ chatType: 'p2p', chatId, text: 'echo fine-$((7+7))' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('fine-14')), 30_000, 'normal answer afterwards');
  });
});
