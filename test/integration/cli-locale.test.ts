// Issue 32 item 9: the `larkmux` command speaks the terminal's language (zh_* → Chinese, C → English); --json does not change.
import { afterAll, describe, expect, it } from 'vitest';
import { makeTestHome } from '../support/home.js';
import { runLarkmux } from '../support/larkmux-cli.js';

describe('larkmux status under a locale (no daemon running)', () => {
  const home = makeTestHome();
  const env = (lang: string) => ({ ...home.env, LC_ALL: '', LC_MESSAGES: '', LANG: lang });
  afterAll(() => home.cleanup());

  it('LANG=zh_CN.UTF-8 prints Chinese, LANG=C English, and --json is the same JSON under both', async () => {
    const zh = await runLarkmux(['status'], env('zh_CN.UTF-8'));
    expect(zh.code).toBe(3);
    expect(zh.stdout).toMatch(/^larkmux 未在运行。启动：(npx )?larkmux start\n$/);
    const en = await runLarkmux(['status'], env('C'));
    expect(en.code).toBe(3);
    expect(en.stdout).toMatch(/^larkmux is not running\. Start it with: (npx )?larkmux start\n$/);
    const zhJson = await runLarkmux(['status', '--json'], env('zh_CN.UTF-8'));
    const enJson = await runLarkmux(['status', '--json'], env('C'));
    expect(JSON.parse(zhJson.stdout)).toEqual({ running: false, home: home.dir });
    expect(zhJson.stdout).toBe(enJson.stdout);
  }, 120_000);

  it('LC_MESSAGES=zh_CN.UTF-8 over LANG=C: `larkmux stop` says it in Chinese', async () => {
    const res = await runLarkmux(['stop'], { ...env('C'), LC_MESSAGES: 'zh_CN.UTF-8' });
    expect(res.stdout).toBe('larkmux 未在运行。\n');
  }, 60_000);
});
