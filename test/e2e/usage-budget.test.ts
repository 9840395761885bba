// A bot's daily budget through the real daemon (larkmux start), the fake Feishu and a real shell in tmux (issue 30
// item 3): the usage ledger says how much of today is used; at 80% the owner is mentioned once, at 100% a new turn
// is held with a notice and never reaches the pane, /resume says the budget is still used up, and a restart keeps the
// held prompt. (The CLI usage-limit hold is test/integration/usage-hold.test.ts, through a real worker process.)
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';
import { until } from '../support/until.js';
import { USAGE_LEDGER_VERSION } from '../../src/shared/usage-ledger.js';

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
    /** Spends `tokens` today, as an earlier turn of this bot would have (the ledger is the daemon's own file). */
    const spend = (tokens: number) => {
      const dir = join(r.home.dir, 'usage');
      mkdirSync(dir, { recursive: true });
      const entry = { v: USAGE_LEDGER_VERSION, at: new Date().toISOString(), appId, bot: 'earlier', sessionId: 'earlier', cli: 'shell', usage: { inputTokens: tokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 } };
      appendFileSync(join(dir, 'usage.jsonl'), `${JSON.stringify(entry)}\n`);
    };
    spend(850);
    await r.start();
    const first = await r.fake.injectMessage({ appId, chatType: 'p2p', text: 'echo one-$((1+1))' });
    const chatId = first.chatId;
    const texts = () => textsIn(r.fake, appId, chatId);
    const say = async (text: string) => void (await r.fake.injectMessage({ appId, chatType: 'p2p', chatId, text }));
    await until('the first answer', () => texts().some((t) => t.includes('one-2')), 45_000);
    await say('echo two-$((1+1))');
    await until('the second answer', () => texts().some((t) => t.includes('two-2')), 45_000);
    // The owner (the bot's allowed user here) is told once at 85%, by mention.
    expect(texts().filter((t) => t.includes(`<at user_id="${r.user}"></at>`) && t.includes('85% of its daily budget')).length).toBe(1);

    spend(200);
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
});
