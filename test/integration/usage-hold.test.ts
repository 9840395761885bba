// Usage limits hold prompts (issue 30 item 3), through the real session owner, the real worker pool and the real Lark
// adapter to the fake Feishu, real seconds. The `usage_limit` report comes from a real worker process that speaks the
// real IPC protocol (test/support/workers/limit-worker.ts) and logs every input it is sent — what would be typed into
// the CLI. Once the worker recognises each real CLI's limit screen, WORKER_ENTRY becomes the real worker and the
// limit comes from a CLI and its fake model server; the assertions stay.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireScheduled } from '../../src/daemon/schedules/scheduled-turn.js';
import { SessionService } from '../../src/daemon/sessions/session-service.js';
import type { SessionCore } from '../../src/daemon/ground/session-core.js';
import { holdStorePath } from '../../src/daemon/sessions/hold-store.js';
import { usageLedgerFor } from '../../src/daemon/sessions/usage-recorder.js';
import { WorkerPool } from '../../src/daemon/workers/worker-pool.js';
import { createLogger } from '../../src/platform/log.js';
import { NO_GRANTS } from '../../src/daemon/ground/permissions.js';
import { BotConfigSchema } from '../../src/shared/config.js';
import { ScheduleSchema } from '../../src/shared/schedule-record.js';
import { translator } from '../../src/shared/i18n.js';
import { USAGE_LEDGER_VERSION } from '../../src/shared/usage-ledger.js';
import { markdownText } from '../support/cards.js';
import { connectProbe, startHarness, TEST_APPS, type LarkHarness } from '../support/fake-feishu/harness.js';
import { testFrames } from '../support/frames.js';
import { until } from '../support/until.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** The one line to change when the real worker recognises a real CLI's limit. */
const WORKER_ENTRY = join(ROOT, 'test', 'support', 'workers', 'limit-worker.ts');
const TZ = 'Asia/Shanghai';

/** A launch starts the worker at once (no caps here): the capacity keeper's side of the owner. */
class InstantCapacity {
  async launch(group: SessionService, session: SessionCore): Promise<boolean> {
    return group.workerLive(session.id) || group.ensureWorker(session);
  }
  schedule(): void {}
  turnDone(): void {}
  workerGone(): void {}
}

let h: LarkHarness;
let home: string;
const cleanups: (() => Promise<void>)[] = [];
beforeEach(async () => {
  h = await startHarness();
  home = mkdtempSync(join(tmpdir(), 'lmx-hold-'));
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await h.cleanup();
  rmSync(home, { recursive: true, force: true });
});

const app = TEST_APPS[0]!;
const inputsLog = () => join(home, 'typed.jsonl');
/** Every input the worker was sent, in order: what would have been typed into the CLI. */
function typed(): string[] {
  return existsSync(inputsLog()) ? readFileSync(inputsLog(), 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { text: string }).text) : [];
}

async function owner(botOverrides: Record<string, unknown> = {}) {
  const p = h.makeAdapter();
  await connectProbe(p);
  const bot = BotConfigSchema.parse({ name: 'alpha', appId: app.appId, appSecret: app.appSecret, cli: 'shell', workingDir: home, locale: 'en', timezone: TZ, ...botOverrides });
  const log = createLogger({ file: join(home, 'test.log') });
  const pool = new WorkerPool({ log, entry: WORKER_ENTRY, env: { LIMIT_WORKER_LOG: inputsLog() } });
  const service = new SessionService({
    bot, home, log, t: translator('en'), im: p.adapter, workers: pool, tmuxSocket: null, backend: 'pty',
    capacity: new InstantCapacity(), frames: testFrames(home), holdOptions: { rand: () => 0, owner: () => 'ou_owner' },
  });
  expect(await service.load()).toEqual([]);
  service.holds.start();
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await service.dispose();
    await pool.dispose();
  };
  cleanups.push(stop);
  return { service, stop, im: p.adapter, log };
}

/** A person's message in the chat, handed to the owner as the bot's inbound path does. */
async function say(service: SessionService, s: SessionCore, chatId: string, text: string, userId = 'ou_alice'): Promise<string> {
  const msg = await h.fake.injectMessage({ chatType: 'p2p', chatId, text });
  await service.inSessionOrder(s.key, () => service.submit(service.get(s.id) ?? s, { messageId: msg.messageId, requester: { userId }, kind: 'prompt', text, notices: [] }));
  return msg.messageId;
}

const anchorOf = (chatId: string) => ({ anchorId: chatId, scope: 'chat' as const, sessionKey: `${app.appId}:${chatId}`, place: { chatId, chatType: 'p2p' as const }, replyTo: 'om_x' });
const textsTo = (chatId: string) => h.fake.messages.filter((m) => m.chatId === chatId && m.msgType === 'text').map((m) => String((m.content as { text?: string })?.text ?? ''));
const cardsSay = (chatId: string, needle: string) => h.fake.messages.some((m) => m.chatId === chatId && m.msgType === 'interactive' && m.history.some((v) => markdownText(v).includes(needle)));

describe('a usage limit holds the session', { timeout: 120_000 }, () => {
  it('prompts during the hold are not typed; at the reset they go in order, once, after one "continue", with a notice', async () => {
    const { service } = await owner();
    const chatId = 'oc_hold1';
    const s = service.create(anchorOf(chatId), 'ou_alice');
    await say(service, s, chatId, 'HIT-LIMIT 4s first');
    // The card says until when (hh:mm in the bot's time zone), the person who asked is mentioned.
    await until('the card says limited', () => cardsSay(chatId, 'Limited until'));
    expect(cardsSay(chatId, `(${TZ})`)).toBe(true);
    await until('the asker mentioned', () => textsTo(chatId).some((t) => t.includes('<at user_id="ou_alice"></at>') && t.includes('usage limit')));
    await say(service, s, chatId, 'second');
    await say(service, s, chatId, 'third', 'ou_bob');
    // Held: nothing more was typed, and each waiting prompt was told why.
    expect(typed()).toEqual(['HIT-LIMIT 4s first']);
    expect(textsTo(chatId).filter((t) => t.includes('Waits for the usage limit')).length).toBe(2);
    // Stored: the hold and its queue are on disk.
    const stored = JSON.parse(readFileSync(holdStorePath(home, app.appId), 'utf8')) as { records: { queue: { text: string }[] }[] };
    expect(stored.records[0]!.queue.map((q) => q.text)).toEqual(['continue', 'second', 'third']);
    await until('the held prompts answered', () => cardsSay(chatId, 'answered: third'), 60_000);
    expect(typed()).toEqual(['HIT-LIMIT 4s first', 'continue', 'second', 'third']);
    expect(textsTo(chatId).some((t) => t.includes('The hold is over: 3 waiting prompt(s)'))).toBe(true);
    await until('the hold file emptied', () => !service.holds.holding(s.id));
  });

  it('/resume delivers the waiting prompts at once', async () => {
    const { service } = await owner();
    const chatId = 'oc_hold2';
    const s = service.create(anchorOf(chatId), 'ou_alice');
    await say(service, s, chatId, 'HIT-LIMIT 3600s first');
    await until('held', () => service.holds.holding(s.id) && cardsSay(chatId, 'Limited until'));
    await say(service, s, chatId, 'second');
    expect(typed()).toEqual(['HIT-LIMIT 3600s first']);
    expect(await service.holds.resumeNow(service.get(s.id)!)).toEqual({ kind: 'resumed' });
    await until('the waiting prompt answered', () => cardsSay(chatId, 'answered: second'));
    expect(typed()).toEqual(['HIT-LIMIT 3600s first', 'continue', 'second']);
  });

  it('a schedule due twice during a hold posts its "Scheduled by" line once and runs once; its card still says who scheduled it', async () => {
    const { service, im, log } = await owner();
    const chatId = 'oc_hold4';
    const s = service.create(anchorOf(chatId), 'ou_alice');
    await say(service, s, chatId, 'HIT-LIMIT 3600s first');
    await until('held', () => service.holds.holding(s.id) && cardsSay(chatId, 'Limited until'));
    const schedule = ScheduleSchema.parse({
      id: '0123456789ab', sessionKey: s.key, anchorId: chatId, scope: 'chat', chatId, chatType: 'p2p', cwd: home, creatorId: 'ou_alice', creatorName: 'Alice',
      prompt: 'nightly $(report) 报告 🌙', spec: { kind: 'interval', everyMs: 60_000, startAt: 0 }, text: 'every 1m nightly', timezone: TZ, createdAt: 0, nextRunAt: 60_000,
    });
    const deps = {
      sessions: service, im, t: translator('en'), log, permissionBot: () => ({ allowedUsers: ['ou_alice'], allowedChats: [] }), grants: () => NO_GRANTS,
      scheduler: () => { throw new Error('the creator may still operate the bot: the scheduler is not asked'); },
    };
    const lines = () => textsTo(chatId).filter((t) => t.startsWith('⏰ Scheduled by Alice (0123456789ab)'));
    await fireScheduled(deps, schedule, Date.now(), 'due');
    await until('the first firing waits', () => textsTo(chatId).filter((t) => t.includes('Waits for the usage limit')).length === 1);
    await fireScheduled(deps, schedule, Date.now(), 'due');
    await fireScheduled(deps, schedule, Date.now(), 'caughtUp');
    expect(lines()).toEqual(['⏰ Scheduled by Alice (0123456789ab): nightly $(report) 报告 🌙']);
    expect(textsTo(chatId).filter((t) => t.includes('Waits for the usage limit')).length).toBe(1);
    expect(await service.holds.resumeNow(service.get(s.id)!)).toEqual({ kind: 'resumed' });
    await until('the scheduled prompt answered', () => cardsSay(chatId, 'answered: nightly $(report) 报告 🌙'));
    expect(typed()).toEqual(['HIT-LIMIT 3600s first', 'continue', 'nightly $(report) 报告 🌙']);
    console.log(JSON.stringify(h.fake.messages.filter((m) => m.chatId === chatId && m.msgType === 'interactive').flatMap((m) => m.history.map((v) => markdownText(v)))));
    expect(cardsSay(chatId, '⏰ Scheduled by Alice (0123456789ab).')).toBe(true);
    expect(lines().length).toBe(1);
  });

  it('a daemon restart during a hold keeps the hold and its queue: after the reset each prompt goes once', async () => {
    const first = await owner();
    const chatId = 'oc_hold3';
    const s = first.service.create(anchorOf(chatId), 'ou_alice');
    await say(first.service, s, chatId, 'HIT-LIMIT 5s first');
    await until('held', () => first.service.holds.holding(s.id) && cardsSay(chatId, 'Limited until'));
    await say(first.service, s, chatId, 'second');
    await first.stop();
    const { service } = await owner();
    expect(service.holds.holding(s.id)).toBe(true);
    expect(typed()).toEqual(['HIT-LIMIT 5s first']);
    await until('the waiting prompt answered after the restart', () => cardsSay(chatId, 'answered: second'), 60_000);
    expect(typed()).toEqual(['HIT-LIMIT 5s first', 'continue', 'second']);
  });
});

describe('the daily budget', { timeout: 60_000 }, () => {
  async function spend(tokens: number): Promise<void> {
    const ledger = usageLedgerFor(home, createLogger({ file: join(home, 'test.log') }));
    await ledger.append({
      v: USAGE_LEDGER_VERSION, at: new Date().toISOString(), appId: app.appId, bot: 'alpha', sessionId: 'earlier', cli: 'shell',
      usage: { inputTokens: tokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
    });
  }

  it('warns the owner once at 80%, and holds a new turn at 100% with a notice', async () => {
    const { service } = await owner({ budget: { dailyTokens: 1000 } });
    const chatId = 'oc_budget';
    const s = service.create(anchorOf(chatId), 'ou_alice');
    await spend(850);
    await say(service, s, chatId, 'one');
    await until('the first answered', () => cardsSay(chatId, 'answered: one'));
    await say(service, s, chatId, 'two');
    await until('the second answered', () => cardsSay(chatId, 'answered: two'));
    const warnings = textsTo(chatId).filter((t) => t.includes('<at user_id="ou_owner"></at>') && t.includes('85% of its daily budget'));
    expect(warnings.length).toBe(1);
    await spend(200);
    await say(service, s, chatId, 'three');
    await until('the budget notice', () => textsTo(chatId).some((t) => t.includes('has used its daily budget') && t.includes(`(${TZ})`)));
    expect(service.holds.holding(s.id)).toBe(true);
    expect(typed()).toEqual(['one', 'two']);
  });
});
