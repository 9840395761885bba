// Schedules end to end, real seconds: the real daemon (larkmux start), the fake Feishu, a real shell in tmux. A
// scheduled prompt reaches the pane like a person's (the shell's output proves it ran), fires on time, once per due
// time across a daemon restart, runs once with a notice after the daemon was down over its due time, and the
// /schedules card's buttons pause and delete.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buttons, markdownText, textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';
import { runLarkmux } from '../support/larkmux-cli.js';
import { until } from '../support/until.js';

type Json = Record<string, any>;

// Real seconds: a test waits over due times and a daemon that is down over them (about 40 s here), so it gets more than
// the default minute on a busy machine.
describe('schedules through the real daemon', { timeout: 180_000 }, () => {
  let rig: E2eRig | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
  });

  async function begin(botOverrides: Record<string, unknown> = {}): Promise<{ r: E2eRig; appId: string; chatId: string; say(text: string): Promise<void> }> {
    const r = await startRig({ botOverrides });
    rig = r;
    await r.start();
    const appId = r.appIds[0]!;
    const first = await r.fake.injectMessage({ appId, chatType: 'p2p', text: 'echo ready-$((1+1))' });
    await r.fake.waitFor(() => textsIn(r.fake, appId, first.chatId).some((t) => t.includes('ready-2')), 45_000, 'the first answer');
    const say = async (text: string) => void (await r.fake.injectMessage({ appId, chatType: 'p2p', chatId: first.chatId, text }));
    return { r, appId, chatId: first.chatId, say };
  }

  const has = (r: E2eRig, appId: string, chatId: string, needle: string) => textsIn(r.fake, appId, chatId).some((t) => t.includes(needle));
  const count = (r: E2eRig, appId: string, chatId: string, needle: string) => textsIn(r.fake, appId, chatId).filter((t) => t.includes(needle)).length;
  const storeOf = (r: E2eRig, appId: string): Json[] => {
    const path = join(r.home.dir, `sessions-${appId}.schedules.json`);
    return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')).records : [];
  };

  it('/in 3s types the prompt into the pane as the creator, with a "scheduled by" line', async () => {
    const { r, appId, chatId, say } = await begin();
    await say('/in 3s echo sched-in-$((40+2))');
    await until('the schedule confirmed', () => has(r, appId, chatId, 'Scheduled ('));
    await until('the scheduled line', () => has(r, appId, chatId, '⏰ Scheduled by'), 30_000);
    await until('the shell ran the prompt', () => has(r, appId, chatId, 'sched-in-42'), 45_000);
    // The turn's card says it was scheduled, and by whom.
    await until('the turn card says so', () => r.fake.messages.some((m) => m.chatId === chatId && m.msgType === 'interactive' && m.history.some((v) => markdownText(v).includes(`⏰ Scheduled by ${r.user}`))));
    // A one-shot is gone from the store once it has fired.
    await until('the store emptied', () => storeOf(r, appId).length === 0);
  });

  it('a prompt due during a running turn waits for it and never interrupts it', async () => {
    const { r, appId, chatId, say } = await begin();
    await say('sleep 8; echo long-$((2+3))-done');
    await say('/in 2s echo after-long-$((1+2))');
    await until('the scheduled prompt ran', () => has(r, appId, chatId, 'after-long-3'), 60_000);
    const texts = textsIn(r.fake, appId, chatId);
    const long = texts.findIndex((t) => t.includes('long-5-done'));
    // The long turn finished (not interrupted: its echo ran) before the scheduled one answered.
    expect(long).toBeGreaterThanOrEqual(0);
    expect(long).toBeLessThan(texts.findIndex((t) => t.includes('after-long-3')));
  });

  it('/every fires again and again, once per due time, across a daemon restart', async () => {
    const { r, appId, chatId, say } = await begin();
    const ticks = join(r.home.dir, 'ticks');
    await say('/every 6s echo x >> ticks; echo tick-$(wc -l < ticks)');
    await until('the first firing ran', () => has(r, appId, chatId, 'tick-1'), 45_000);
    await r.stop();
    const before = readFileSync(ticks, 'utf8').split('\n').filter(Boolean).length;
    await r.start();
    await until('a firing after the restart ran', () => has(r, appId, chatId, `tick-${before + 1}`), 60_000);
    // Never more firings than due times so far (a firing repeated over the restart would be one more), each announced.
    const s = storeOf(r, appId)[0]!;
    const lines = readFileSync(ticks, 'utf8').split('\n').filter(Boolean).length;
    expect(lines).toBeLessThanOrEqual(Math.floor((Date.now() - s.spec.startAt) / 6000) + 1);
    expect(count(r, appId, chatId, '⏰ Scheduled by')).toBeGreaterThanOrEqual(lines);
    expect(s.lastDueAt).toBeGreaterThan(s.createdAt);
  });

  it('a due time the daemon was down for runs once at start, with a notice (catchUp once)', async () => {
    const { r, appId, chatId, say } = await begin();
    await say('/every 8s echo caught-$((3*3)) >> caught; echo caught-$(wc -l < caught)');
    await until('the schedule confirmed', () => storeOf(r, appId).length === 1);
    await r.stop();
    const s = storeOf(r, appId)[0]!;
    // Down over three due times (real seconds), and past the 5 s after which a due time counts as missed.
    await until('three due times passed', () => Date.now() > s.nextRunAt + 2 * 8000 + 6000, 60_000, 500);
    await r.start();
    await until('the catch-up notice', () => has(r, appId, chatId, 'while larkmux was not running; it runs once now'), 30_000);
    await until('the missed prompt ran once', () => has(r, appId, chatId, 'caught-1'), 45_000);
    expect(count(r, appId, chatId, 'while larkmux was not running')).toBe(1);
  });

  it('with catchUp skip, a due time the daemon was down for is skipped with a notice, and the next one runs', async () => {
    const { r, appId, chatId, say } = await begin({ catchUp: 'skip' });
    await say('/every 8s echo skipped-$((4*4)) >> skipped; echo skipped-$(wc -l < skipped)');
    await until('the schedule confirmed', () => storeOf(r, appId).length === 1);
    await r.stop();
    const s = storeOf(r, appId)[0]!;
    await until('two due times passed', () => Date.now() > s.nextRunAt + 8000 + 6000, 60_000, 500);
    await r.start();
    await until('the skip notice', () => has(r, appId, chatId, 'skipped (catchUp: skip)'), 30_000);
    // Skipped: nothing ran at start; the next due time (counted from the start) runs it for the first time.
    expect(has(r, appId, chatId, 'skipped-1')).toBe(false);
    await until('the next due time ran', () => has(r, appId, chatId, 'skipped-1'), 45_000);
    expect(count(r, appId, chatId, 'skipped (catchUp: skip)')).toBe(1);
  });

  it('a schedule whose session was closed starts a new one in the same topic and folder', async () => {
    const { r, appId, chatId, say } = await begin();
    await say('/close');
    await until('the session closed', async () => (await r.status()).sessions.every((x: Json) => x.lifecycle === 'closed'));
    await say('/in 3s echo reopened-$((5+5)) in $(basename $PWD)');
    await until('the new session ran the prompt', () => has(r, appId, chatId, `reopened-10 in ${r.home.dir.split('/').pop()}`), 45_000);
    const sessions = (await r.status()).sessions as Json[];
    expect(sessions.filter((x) => x.lifecycle !== 'closed')).toHaveLength(1);
  });

  it('stops with a notice when its creator may no longer operate the bot', async () => {
    const { r, appId, chatId, say } = await begin();
    await say('/every 5s echo should-not-run-$((6*7))');
    await until('the schedule stored', () => storeOf(r, appId).length === 1);
    await r.stop();
    // The creator keeps talking (the chat is allowed) but is no operator any more.
    const config = JSON.parse(readFileSync(r.home.paths.config, 'utf8'));
    config.bots[0].allowedUsers = ['ou_someone_else'];
    config.bots[0].allowedChats = [chatId];
    r.home.writeConfig(config);
    await r.start();
    await until('the stop notice', () => has(r, appId, chatId, 'may no longer operate this bot'), 30_000);
    await until('the schedule paused', () => storeOf(r, appId)[0]?.paused === true);
    expect(has(r, appId, chatId, 'should-not-run-42')).toBe(false);
  });

  it('/schedules lists them; its buttons pause and delete', async () => {
    const { r, appId, chatId, say } = await begin();
    await say('/every 1h echo hourly');
    await say('/at 2099-01-01 09:00 echo far');
    await until('a time too far refused', () => has(r, appId, chatId, 'more than a year away'));
    await say('/in 2h echo later');
    await until('two schedules stored', () => storeOf(r, appId).length === 2);
    await say('/schedules');
    const card = await until('the schedules card', () => r.fake.messages.find((m) => m.appId === appId && m.chatId === chatId && m.msgType === 'interactive' && markdownText(m.content).includes('echo hourly')));
    expect(markdownText(card.content)).toContain('later');
    expect(buttons(card.content).filter((b) => b === 'Pause')).toHaveLength(2);
    await r.fake.tapButton(card.messageId, 'Pause');
    await until('one paused in the store', () => storeOf(r, appId).filter((x) => x.paused).length === 1);
    await until('the card shows Resume', () => buttons(r.fake.message(card.messageId)!.content).includes('Resume'));
    // The host sees the same from the stores: `larkmux schedules`, whether the daemon runs or not.
    const listed = await runLarkmux(['schedules', '--json'], r.home.env);
    expect(listed.code).toBe(0);
    const bots = JSON.parse(listed.stdout) as { appId: string; schedules: { text: string; paused: boolean; nextRunAt: number | null }[] }[];
    const mine = bots.find((b) => b.appId === appId)!;
    expect(mine.schedules.map((x) => x.text).sort()).toEqual(['1h echo hourly', '2h echo later']);
    expect(mine.schedules.filter((x) => x.paused)).toHaveLength(1);
    const table = await runLarkmux(['schedules'], r.home.env);
    expect(table.stdout).toMatch(/paused .*echo (hourly|later)/);
    expect(table.stdout).toMatch(/active .*echo (hourly|later)/);
    await r.fake.tapButton(card.messageId, 'Delete');
    await until('one left in the store', () => storeOf(r, appId).length === 1);
    await until('the card lists one', () => buttons(r.fake.message(card.messageId)!.content).filter((b) => b === 'Delete').length === 1);
  });
});
