// A bot's budget read again from config.json without a restart (issue 30 item 3): only its `budget` field, found by
// app id (else name); a file that does not parse keeps the budget it had, with one log line and no value quoted.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/log.js';
import { BudgetSource } from '../../src/daemon/sessions/budget-source.js';
import { BudgetStateStore } from '../../src/daemon/sessions/budget-state-store.js';
import { budgetInConfig } from '../../src/shared/usage-budget.js';
import { isSessionStoreName } from '../../src/platform/paths.js';

const bot = { appId: 'cli_a', name: 'main' };

describe('budgetInConfig', () => {
  it.each([
    { name: 'by app id', raw: { bots: [{ appId: 'cli_b', name: 'main', budget: { dailyTokens: 1 } }, { appId: 'cli_a', budget: { dailyTokens: 5 } }] }, want: { ok: true, budget: { dailyTokens: 5 } } },
    { name: 'by name when the app id is a ${VAR}', raw: { bots: [{ appId: '${APP}', name: 'main', budget: { dailyCostUsd: 2 } }] }, want: { ok: true, budget: { dailyCostUsd: 2 } } },
    { name: 'budget removed: no limit', raw: { bots: [{ appId: 'cli_a' }] }, want: { ok: true, budget: undefined } },
    { name: 'no bots list', raw: { web: {} }, want: { ok: false, error: 'config.json has no bots list' } },
    { name: 'not an object', raw: [1], want: { ok: false, error: 'config.json has no bots list' } },
    { name: 'the bot is gone', raw: { bots: [{ appId: 'cli_z', name: 'other' }] }, want: { ok: false, error: 'config.json no longer lists the bot "main"' } },
  ])('$name', ({ raw, want }) => {
    expect(budgetInConfig(raw, bot)).toEqual(want);
  });

  it('names the field of a bad budget, never its value', () => {
    const res = budgetInConfig({ bots: [{ appId: 'cli_a', budget: { dailyTokens: -7, extra: 's3cr3t' } }] }, bot);
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.error).toMatch(/^bots\[0\]\.budget: /);
      expect(res.error).not.toContain('s3cr3t');
    }
  });
});

describe('BudgetSource over a real config.json', () => {
  let dir: string;
  let logFile: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lmx-budget-src-'));
    logFile = join(dir, 'log.jsonl');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const config = (budget: unknown) => JSON.stringify({ bots: [{ appId: 'cli_a', name: 'main', appSecret: 'very-secret-value', ...(budget ? { budget } : {}) }] });
  const logLines = () => readFileSync(logFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { msg: string });

  it('sees an edit without a restart, keeps the budget over a broken file (one log line), then sees the fix', async () => {
    const path = join(dir, 'config.json');
    writeFileSync(path, config({ dailyTokens: 1000 }));
    const log = createLogger({ file: logFile, level: 'info' });
    const src = new BudgetSource({ path, bot: { ...bot, budget: { dailyTokens: 1000 } }, log });
    expect(await src.current()).toEqual({ dailyTokens: 1000 });

    writeFileSync(path, config({ dailyTokens: 50_000 }));
    expect(await src.current()).toEqual({ dailyTokens: 50_000 });

    writeFileSync(path, `${config({ dailyTokens: 90_000 }).slice(0, -2)} "very-secret-value`);
    expect(await src.current()).toEqual({ dailyTokens: 50_000 });
    expect(await src.current()).toEqual({ dailyTokens: 50_000 });
    writeFileSync(path, config({ dailyTokens: 'lots' }));
    expect(await src.current()).toEqual({ dailyTokens: 50_000 });

    writeFileSync(path, config(undefined));
    expect(await src.current()).toBeUndefined();
    const warnings = logLines().filter((l) => l.msg.includes('stays as it was'));
    expect(warnings.map((l) => l.msg.split(';')[0])).toEqual([expect.stringMatching(/^config\.json is not valid JSON at line 1/), expect.stringMatching(/^bots\[0\]\.budget: dailyTokens: /)]);
    expect(readFileSync(logFile, 'utf8')).not.toContain('very-secret-value');
  });
});

describe('the day the owner was warned, beside the session store', () => {
  it('is there again for a new store over the same home, and is not taken for a session store', async () => {
    const home = mkdtempSync(join(tmpdir(), 'lmx-budget-state-'));
    try {
      const first = new BudgetStateStore({ home, appId: 'cli_a' });
      expect(await first.warnedDay()).toBeUndefined();
      await first.setWarnedDay('2026-12-04');
      await first.dispose();
      const again = new BudgetStateStore({ home, appId: 'cli_a' });
      expect(await again.warnedDay()).toBe('2026-12-04');
      await again.dispose();
      expect(isSessionStoreName('sessions-cli_a.budget.json')).toBe(false);
      expect(isSessionStoreName('sessions-cli_a.json')).toBe(true);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
