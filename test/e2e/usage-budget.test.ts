// A bot's daily budget through the real daemon (larkmux start), the fake Feishu and a real shell in tmux (issue 30
// item 3): the usage ledger says how much of today is used; at 80% the owner is mentioned once, at 100% a new turn
// is held with a notice and never reaches the pane, /resume says the budget is still used up, and a restart keeps the
// held prompt; the warning is remembered over a restart, and a budget raised in config.json lets the held prompt run,
// once, without a restart. (The CLI usage-limit hold is test/integration/usage-hold.test.ts, through a real worker.)
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';
import { until } from '../support/until.js';
import { USAGE_LEDGER_VERSION } from '../../src/shared/usage-ledger.js';

/** Spends `tokens` today for the bot, as an earlier turn of it would have (the ledger is the daemon's own file). */
function spend(r: E2eRig, tokens: number): void {
  const dir = join(r.home.dir, 'usage');
  mkdirSync(dir, { recursive: true });
  const entry = { v: USAGE_LEDGER_VERSION, at: new Date().toISOString(), appId: r.appIds[0]!, bot: 'earlier', sessionId: 'earlier', cli: 'shell', usage: { inputTokens: tokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 } };
  appendFileSync(join(dir, 'usage.jsonl'), `${JSON.stringify(entry)}\n`);
}

describe('the daily budget through the real daemon', { timeout: 180_000 }, () => {
  let rig: E2eRig | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
  });

  it('warns the owner once at 80%, holds a new turn at 100%, and keeps it held over a restart', async () => {
    const r = await startRig({ botOverrides: { budget: { dailyTokens: 1000 }, timezone: 'UTC' } });
    rig = r;
    const appId = r.appIds[0]!;
    spend(r, 850);
    await r.start();
    const first = await r.fake.injectMessage({ appId, chatType: 'p2p', text: 'echo one-$((1+1))' });
    const chatId = first.chatId;
    const texts = () => textsIn(r.fake, appId, chatId);
    const say = async (text: string) => void (await r.fake.injectMessage({ appId, chatType: 'p2p', chatId, text }));
    await until('the first answer', () => texts().some((t) => t.includes('one-2')), 45_000);
    await say('echo two-$((1+1))');
    await until('the second answer', () => texts().some((t) => t.includes('two-2')), 45_000);
    // The owner (the bot's allowed user here) is told once at 85%, by mention.
    const warnings = () => texts().filter((t) => t.includes(`<at user_id="${r.user}"></at>`) && t.includes('85% of its daily budget')).length;
    expect(warnings()).toBe(1);
    // The day's warning is remembered over a restart (sessions-<appId>.budget.json): not told again.
    await r.stop();
    await r.start();
    await say('echo two-b-$((1+1))');
    await until('the answer after the restart', () => texts().some((t) => t.includes('two-b-2')), 45_000);
    expect(warnings()).toBe(1);

    spend(r, 200);
    await say('echo three-$((1+2))');
    await until('the budget notice', () => texts().some((t) => t.includes('has used its daily budget') && t.includes('(UTC)')));
    await until('the prompt told it waits', () => texts().some((t) => t.includes('Waits for the daily budget')));
    await say('/resume');
    await until('/resume answers', () => texts().some((t) => t.includes('The daily budget is still used up')));

    await r.stop();
    await r.start();
    await say('/resume');
    await until('/resume answers after the restart', () => texts().filter((t) => t.includes('The daily budget is still used up')).length === 2);
    // The held prompt never reached the pane: no answer with its output.
    expect(texts().some((t) => t.includes('three-3'))).toBe(false);
  });

  it('keeps the budget over a config.json that does not parse, then lets the held prompt run once when it is raised', async () => {
    const r = await startRig({ botOverrides: { budget: { dailyTokens: 1000 }, timezone: 'UTC' } });
    rig = r;
    // The daemon looks at config.json every half second while a prompt waits for the budget (30 s by default).
    r.home.env.LARKMUX_BUDGET_WATCH_MS = '500';
    const appId = r.appIds[0]!;
    spend(r, 1200);
    await r.start();
    const ran = join(r.home.dir, 'held-ran.txt');
    const first = await r.fake.injectMessage({ appId, chatType: 'p2p', text: `echo "held $((40+2))" >> ${ran}` });
    const chatId = first.chatId;
    const texts = () => textsIn(r.fake, appId, chatId);
    await until('the prompt told it waits', () => texts().some((t) => t.includes('Waits for the daily budget')));
    await until('the budget notice', () => texts().some((t) => t.includes('has used its daily budget') && t.includes('no restart needed')));

    // A broken edit: the budget stays as it was, one log line says why, the prompt still waits.
    const configPath = r.home.paths.config;
    const config = JSON.parse(readFileSync(configPath, 'utf8'));
    writeFileSync(configPath, `${JSON.stringify(config).slice(0, -3)}`);
    await until('the broken config.json logged', () => r.logText().includes('config.json is not valid JSON'));
    await r.fake.injectMessage({ appId, chatType: 'p2p', chatId, text: `echo "second $((1+1))" >> ${ran}` });
    await until('the second prompt told it waits', () => texts().filter((t) => t.includes('Waits for the daily budget')).length === 2);
    expect(r.logText().split('\n').filter((l) => l.includes('config.json is not valid JSON')).length).toBe(1);
    expect(existsSync(ran)).toBe(false);

    // Raised: the waiting prompts go on their own, in order, each once.
    config.bots[0].budget = { dailyTokens: 100_000 };
    writeFileSync(configPath, JSON.stringify(config, null, 2));
    await until('the hold is over', () => texts().some((t) => t.includes('The hold is over')), 30_000);
    await until('both prompts ran', () => existsSync(ran) && readFileSync(ran, 'utf8').includes('second 2'), 45_000);
    await r.fake.injectMessage({ appId, chatType: 'p2p', chatId, text: 'echo after-$((1+1))' });
    await until('a later prompt answered', () => texts().some((t) => t.includes('after-2')), 45_000);
    expect(readFileSync(ran, 'utf8')).toBe('held 42\nsecond 2\n');
    expect(r.logText()).not.toContain(r.home.env.LMX_TEST_SECRET_0!);
  });
});
