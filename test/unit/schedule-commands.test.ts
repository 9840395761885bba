// /in, /at, /every and /schedules through the real dispatcher and command table, against a real (not started)
// scheduler: who may create, what a mistake gets told, what is stored, and the card's buttons.
import { describe, expect, it } from 'vitest';
import { dispatchCommand } from '../../src/daemon/commands/dispatch.js';
import { COMMAND_TABLE } from '../../src/daemon/commands/index.js';
import type { CommandContext } from '../../src/daemon/commands/types.js';
import { NO_GRANTS } from '../../src/daemon/ground/permissions.js';
import type { CardModel, SchedulesCard } from '../../src/shared/card-model.js';
import { translator } from '../../src/shared/i18n.js';
import { SCHEDULE_LIMITS, roomForSchedule } from '../../src/shared/schedule.js';
import { schedulerRig } from '../support/schedule-book.js';

const APP = 'cli_0123456789abcdef';
const NOW = Date.parse('2026-12-04T10:00:00Z');

/** The parts of a context these commands use; the rest is never reached by them (a call would throw). */
function ctx(user = 'ou_admin', locale: 'en' | 'zh-CN' = 'en') {
  const rig = schedulerRig({ timezone: 'Asia/Shanghai' });
  const replies: string[] = [];
  const cards: CardModel[] = [];
  const updated: CardModel[] = [];
  const partial = {
    bot: { name: 'claude', appId: APP, cli: 'shell', workingDir: '/w', defaultPlace: { host: 'local', dir: '/w' }, projects: [], allowedUsers: ['ou_admin'], allowedChats: ['oc_chat'] },
    invoker: { userId: user },
    anchor: { anchorId: 'om_root', scope: 'thread', sessionKey: `om_root::${APP}`, place: { chatId: 'oc_chat', chatType: 'group', rootId: 'om_root' }, replyTo: 'om_1' },
    grants: NO_GRANTS,
    now: NOW,
    t: translator(locale),
    schedules: rig.scheduler,
    reply: async (text: string) => void replies.push(text),
    sendCard: async (card: CardModel) => (cards.push(card), { ok: true as const }),
    updateCard: async (_id: string, card: CardModel) => void updated.push(card),
    currentSession: () => undefined,
  };
  return { c: partial as unknown as CommandContext, rig, replies, cards, updated };
}

describe('schedule commands', () => {
  it.each([
    ['in', '30m check the deploy', { kind: 'once', at: NOW + 1_800_000 }, 'check the deploy'],
    ['at', '2026-12-24 09:00 release notes', { kind: 'once', at: Date.parse('2026-12-24T01:00:00Z') }, 'release notes'],
    ['every', '1d 09:00 run the nightly test summary', { kind: 'cron', expr: '0 9 * * *' }, 'run the nightly test summary'],
    ['every', '"0 */2 * * 1-5" summarise', { kind: 'cron', expr: '0 */2 * * 1-5' }, 'summarise'],
  ])('/%s %s is stored for the topic, run as its creator, in the bot time zone', async (name, args, spec, prompt) => {
    const { c, rig, replies } = ctx();
    expect(await dispatchCommand(name, args, c)).toEqual({ ok: true, command: name });
    const [s] = rig.scheduler.inTopic(`om_root::${APP}`);
    expect(s).toMatchObject({ spec, prompt, creatorId: 'ou_admin', cwd: '/w', anchorId: 'om_root', scope: 'thread', chatId: 'oc_chat', timezone: 'Asia/Shanghai', paused: false });
    expect(replies[0]).toMatch(new RegExp(`^Scheduled \\(${s!.id}\\): next run \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}.* \\(Asia/Shanghai\\)\\.$`));
  });

  it('a topic holds at most SCHEDULE_LIMITS.maxPerTopic pending schedules; the next is refused with why, in both languages', async () => {
    const { c, rig, replies } = ctx();
    for (let i = 0; i < SCHEDULE_LIMITS.maxPerTopic; i++) await dispatchCommand('every', `1h ping ${i}`, c);
    expect(rig.scheduler.inTopic(`om_root::${APP}`)).toHaveLength(SCHEDULE_LIMITS.maxPerTopic);
    await dispatchCommand('in', '5m one more', c);
    expect(rig.scheduler.inTopic(`om_root::${APP}`)).toHaveLength(SCHEDULE_LIMITS.maxPerTopic);
    expect(replies.at(-1)).toBe(`This topic already has ${SCHEDULE_LIMITS.maxPerTopic} schedules waiting to run; delete one on the /schedules card first.`);
    const zh = ctx('ou_admin', 'zh-CN');
    for (let i = 0; i <= SCHEDULE_LIMITS.maxPerTopic; i++) await dispatchCommand('every', `1h ping ${i}`, zh.c);
    expect(zh.replies.at(-1)).toContain(`已有 ${SCHEDULE_LIMITS.maxPerTopic} 个待运行的定时任务`);
  });

  it.each([
    [0, 0, null],
    [SCHEDULE_LIMITS.maxPerTopic - 1, SCHEDULE_LIMITS.maxPerBot - 1, null],
    [SCHEDULE_LIMITS.maxPerTopic, 5, 'schedule.err.topicFull'],
    [3, SCHEDULE_LIMITS.maxPerBot, 'schedule.err.botFull'],
  ])('roomForSchedule(%i in the topic, %i in the bot) → %s', (topic, bot, want) => {
    expect(roomForSchedule(topic, bot)).toBe(want);
  });

  it('a schedule made in a topic placed on another host keeps that host (its session is made again there)', async () => {
    const { c, rig } = ctx();
    (c as { currentSession: () => unknown }).currentSession = () => ({ cwd: '/srv/app', host: 'gpu1' });
    await dispatchCommand('in', '30m check', c);
    expect(rig.scheduler.inTopic(`om_root::${APP}`)[0]).toMatchObject({ cwd: '/srv/app', host: 'gpu1' });
  });

  it('a talker (allowed chat, not an operator) may not create one', async () => {
    const { c, rig, replies } = ctx('ou_talker');
    expect(await dispatchCommand('in', '5m x', c)).toMatchObject({ ok: false, code: 'denied' });
    expect(rig.scheduler.inTopic(`om_root::${APP}`)).toEqual([]);
    expect(replies).toHaveLength(1);
  });

  it.each([
    ['en', 'in', 'soon x', 'Usage: /in <30m | 2h | 1h30m> <prompt>'],
    ['en', 'every', '1s x', 'the shortest interval is 5 seconds.'],
    ['zh-CN', 'at', '25:00 x', '请先写时间'],
  ] as const)('%s /%s %s: a clear reply, nothing stored', async (locale, name, args, needle) => {
    const { c, rig, replies } = ctx('ou_admin', locale);
    await dispatchCommand(name, args, c);
    expect(replies.join('\n')).toContain(needle);
    expect(rig.scheduler.inTopic(`om_root::${APP}`)).toEqual([]);
  });

  it('/schedules shows each with next run and creator; Pause, Resume and Delete act and redraw the card', async () => {
    const { c, rig, cards, updated, replies } = ctx();
    await dispatchCommand('every', '2h ping', c);
    await dispatchCommand('in', '30m once', c);
    await dispatchCommand('schedules', '', c);
    const card = cards[0] as SchedulesCard;
    expect(card.kind).toBe('schedules');
    expect(card.rows.map((r) => r.text)).toEqual([expect.stringMatching(/· 2h ping · next .* · by ou_admin$/), expect.stringMatching(/· 30m once · next .* · by ou_admin$/)]);
    const tap = COMMAND_TABLE.byTap.get('schedule')!;
    expect(tap.command.level).toBe('operate');
    const id = card.rows[0]!.scheduleId;
    await tap.run(c, { action: 'schedule', scheduleId: id, op: 'pause' } as never, { cardMessageId: 'om_card' });
    expect(rig.scheduler.get(id)?.paused).toBe(true);
    expect((updated.at(-1) as SchedulesCard).rows[0]).toMatchObject({ paused: true, text: expect.stringContaining('paused') });
    await tap.run(c, { action: 'schedule', scheduleId: id, op: 'resume' } as never, { cardMessageId: 'om_card' });
    expect(rig.scheduler.get(id)?.paused).toBe(false);
    await tap.run(c, { action: 'schedule', scheduleId: id, op: 'delete' } as never, { cardMessageId: 'om_card' });
    expect(rig.scheduler.get(id)).toBeUndefined();
    expect((updated.at(-1) as SchedulesCard).rows).toHaveLength(1);
    expect(replies.slice(-3)).toEqual([`Schedule ${id} paused.`, expect.stringMatching(new RegExp(`^Schedule ${id} resumed: next run `)), `Schedule ${id} deleted.`]);
  });
});
