// What a chat user reads comes in the bot's language: a bot with no `locale` on a Feishu/private domain speaks
// Simplified Chinese, a bot with "locale": "en" English — replies, refusals, cards (status, keys, buttons),
// notices and tap toasts, through the real daemon, SDK and fake Feishu.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttons, cardsFor, headerColour, markdownText, textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';

const subtitle = (card: unknown): string => String((card as { header?: { subtitle?: { content?: string } } })?.header?.subtitle?.content ?? '');

/** Per language: what the user must see. Both bots run the same steps. */
const EXPECT = {
  'zh-CN': {
    idle: '已空闲', keys: ['Esc', 'Ctrl+C', '回车', '上翻页', '下翻页'], buttons: ['文字', '隐藏屏幕', '写权限链接', '关闭'],
    notice: '截图上传失败，改为以文字显示屏幕。', status: /^会话 [0-9a-f]{8} — 已空闲\n/, denied: '你没有使用这个机器人的权限', toast: '按键已发送',
    help: ['直接发文字即可和 CLI 对话。命令：', '/close — 结束本会话并停止 CLI（操作员）'],
  },
  en: {
    idle: 'Idle', keys: ['Esc', 'Ctrl+C', 'Enter', 'PgUp', 'PgDn'], buttons: ['Text', 'Hide screen', 'Write link', 'Close'],
    notice: 'Screenshot upload failed; showing the screen as text.', status: /^Session [0-9a-f]{8} — Idle\n/, denied: 'You are not allowed to use this bot', toast: 'Key sent',
    help: ['Send any text to talk to the CLI. Commands:', '/close — end this session and stop its CLI (operators)'],
  },
} as const;

describe('chat text in the bot locale', () => {
  let rig: E2eRig;
  beforeAll(async () => {
    // bot0: no locale (the fake's private domain → zh-CN, like feishu); bot1: "locale": "en".
    rig = await startRig({ bots: 2, botOverrides: { locale: undefined }, perBot: [{}, { locale: 'en' }] });
    await rig.start();
    // Every screenshot upload fails, so each card carries the fallback notice.
    rig.fake.failUpload(500);
  });
  afterAll(async () => {
    await rig?.cleanup();
  });

  it.each([
    { name: 'the default Feishu bot', bot: 0, locale: 'zh-CN' as const },
    { name: 'a bot with "locale": "en"', bot: 1, locale: 'en' as const },
  ])('$name speaks $locale: card, notice, command replies, refusal and tap toast', async ({ bot, locale }) => {
    const { fake } = rig;
    const appId = rig.appIds[bot]!;
    const want = EXPECT[locale];
    const msg = await fake.injectMessage({ appId, chatType: 'p2p', text: `echo locale-$((${bot}+40))` });
    await fake.waitFor(() => textsIn(fake, appId, msg.chatId).some((t) => t.includes(`locale-${bot + 40}`)), 30_000, 'final answer');
    const card = await fake.waitFor(() => cardsFor(fake, appId, msg.messageId)[0], 10_000, 'turn card');
    await fake.waitFor(() => headerColour(card.content) === 'green' && markdownText(card.content).includes(want.notice), 30_000, 'idle card with the notice');
    expect(subtitle(card.content).startsWith(want.idle)).toBe(true);
    expect(buttons(card.content)).toEqual(expect.arrayContaining([...want.keys, ...want.buttons]));

    const tap = await fake.tapButton(card.messageId, 'Ctrl+C');
    expect(JSON.stringify(tap.response)).toContain(want.toast);

    const status = await fake.injectMessage({ appId, chatType: 'p2p', chatId: msg.chatId, text: '/status' });
    const reply = await fake.waitFor(() => fake.messages.find((m) => m.parentId === status.messageId && m.msgType === 'text'), 10_000, '/status reply');
    expect(String((reply.content as { text: string }).text)).toMatch(want.status);

    const help = await fake.injectMessage({ appId, chatType: 'p2p', chatId: msg.chatId, text: '/help' });
    const helpReply = await fake.waitFor(() => fake.messages.find((m) => m.parentId === help.messageId && m.msgType === 'text'), 10_000, '/help reply');
    const helpLines = String((helpReply.content as { text: string }).text).split('\n');
    expect(helpLines[0]).toBe(want.help[0]);
    expect(helpLines).toContain(want.help[1]);

    const stranger = await fake.injectMessage({ appId, chatType: 'p2p', senderOpenId: `ou_stranger_${bot}`, text: 'hello' });
    const refusal = await fake.waitFor(() => fake.messages.find((m) => m.parentId === stranger.messageId && m.msgType === 'text'), 10_000, 'refusal');
    expect(String((refusal.content as { text: string }).text)).toContain(want.denied);
  });
});

describe('notices from the worker in the bot locale', () => {
  let rig: E2eRig;
  beforeAll(async () => {
    rig = await startRig({ botOverrides: { locale: undefined } });
    await rig.start();
  });
  afterAll(async () => {
    await rig?.cleanup();
  });

  it('the default Feishu bot says in Chinese that a lost CLI was started fresh', async () => {
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const first = await fake.injectMessage({ appId, chatType: 'p2p', text: 'echo before-$((1+1))' });
    await fake.waitFor(() => textsIn(fake, appId, first.chatId).some((t) => t.includes('before-2')), 30_000, 'first answer');
    const session = (await rig.status()).sessions.find((s: { key: string }) => s.key.startsWith(first.chatId));
    // A reboot, say: the daemon stops and the shell is gone; the next message has to start the shell again.
    await rig.stop();
    await rig.tmux.run(['kill-session', '-t', session.tmuxName]);
    await rig.start();
    const again = await fake.injectMessage({ appId, chatType: 'p2p', chatId: first.chatId, text: 'echo after-$((2+2))' });
    await fake.waitFor(() => textsIn(fake, appId, first.chatId).some((t) => t.includes('after-4')), 40_000, 'answer from the fresh shell');
    const card = await fake.waitFor(() => cardsFor(fake, appId, again.messageId)[0], 10_000, 'turn card');
    await fake.waitFor(() => markdownText(card.content).includes('CLI 之前停止了，已重新启动：shell 不支持恢复对话。'), 20_000, 'fresh-start notice in Chinese');
  }, 180_000);
});
