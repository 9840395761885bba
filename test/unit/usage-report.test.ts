// /usage's reply: today and the last 7 days for this session, the person asking and this bot, in both languages.
import { describe, expect, it } from 'vitest';
import { usageReport, type UsageScope } from '../../src/daemon/commands/usage.js';
import { translator } from '../../src/shared/i18n.js';
import type { UsageEntry } from '../../src/shared/usage-ledger.js';
import { hostTimezone } from '../../src/shared/schedule-settings.js';

const NOW = new Date(2026, 11, 4, 15, 0).getTime();
const H = 3_600_000;

function e(hoursAgo: number, o: Partial<UsageEntry>, tokens: number, costUsd?: number): UsageEntry {
  return {
    v: 1, at: new Date(NOW - hoursAgo * H).toISOString(), appId: 'cli_me', bot: 'dev', sessionId: 's1', cli: 'claude-code', userId: 'ou_me', ...o,
    usage: { inputTokens: tokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, ...(costUsd !== undefined ? { costUsd } : {}) },
  };
}

const LEDGER: UsageEntry[] = [
  e(1, {}, 1000), // today, this session, me
  e(2, { userId: 'ou_other' }, 500), // today, this session, someone else
  e(30, { sessionId: 's0' }, 2000), // yesterday, an older session, me
  e(3, { appId: 'cli_other', bot: 'other' }, 99_000), // another bot: never counted here
];
const TZ = hostTimezone();
const SCOPE: UsageScope = { now: NOW, appId: 'cli_me', userId: 'ou_me', timezone: TZ, sessionId: 's1' };

describe('usageReport', () => {
  it.each([
    {
      name: 'en: session, you, bot — today · week; another bot\'s turns left out',
      locale: 'en' as const, entries: LEDGER, scope: SCOPE,
      want: [
        `Usage: today · last 7 days, days in ${TZ} (tokens = input + output + cache)`,
        'This session: 1.5k tokens in 2 turns · 1.5k tokens in 2 turns',
        'You (this bot): 1k tokens in 1 turn · 3k tokens in 2 turns',
        'This bot: 1.5k tokens in 2 turns · 3.5k tokens in 3 turns',
        'Per day, CLI and model: `larkmux usage` on the host.',
      ],
    },
    {
      name: 'zh-CN, no session here, a reported cost',
      locale: 'zh-CN' as const, entries: [e(1, {}, 10, 0.25)], scope: { ...SCOPE, sessionId: undefined },
      want: [
        `用量：今天 · 近 7 天，按 ${TZ} 的日期（token = 输入 + 输出 + 缓存）`,
        '本会话：这里还没有会话',
        '你（本机器人）：1 轮 10 token（$0.25） · 1 轮 10 token（$0.25）',
        '本机器人：1 轮 10 token（$0.25） · 1 轮 10 token（$0.25）',
        '按天、CLI 和模型查看：在主机上运行 `larkmux usage`。',
      ],
    },
    {
      name: 'en: nothing yet',
      locale: 'en' as const, entries: [], scope: SCOPE,
      want: [
        `Usage: today · last 7 days, days in ${TZ} (tokens = input + output + cache)`,
        'This session: 0 tokens in 0 turns · 0 tokens in 0 turns',
        'You (this bot): 0 tokens in 0 turns · 0 tokens in 0 turns',
        'This bot: 0 tokens in 0 turns · 0 tokens in 0 turns',
        'Per day, CLI and model: `larkmux usage` on the host.',
      ],
    },
  ])('$name', ({ locale, entries, scope, want }) => {
    const { sessionId, ...rest } = scope;
    expect(usageReport(entries, sessionId ? { ...rest, sessionId } : rest, translator(locale), 'larkmux').split('\n')).toEqual(want);
  });
});

describe("/usage counts days in the bot's time zone", () => {
  // 12:00 UTC: 20:00 in Shanghai, 04:00 in Los Angeles. The turns at 02:00 UTC are today in Shanghai, yesterday there.
  const now = Date.parse('2026-12-04T12:00:00Z');
  const at = (iso: string, tokens: number): UsageEntry => ({ ...e(0, {}, tokens), at: iso });
  // And the week: 2026-11-28 05:00 UTC is in Shanghai's last 7 days (13:00 on the 28th), not in Los Angeles' (the 27th).
  const entries = [at('2026-12-04T02:00:00Z', 300), at('2026-12-04T11:00:00Z', 5), at('2026-11-28T05:00:00Z', 7000)];
  it.each([
    { timezone: 'Asia/Shanghai', bot: 'This bot: 305 tokens in 2 turns · 7.3k tokens in 3 turns' },
    { timezone: 'America/Los_Angeles', bot: 'This bot: 5 tokens in 1 turn · 305 tokens in 2 turns' },
  ])('$timezone', ({ timezone, bot }) => {
    const lines = usageReport(entries, { now, appId: 'cli_me', userId: 'ou_me', timezone }, translator('en'), 'larkmux').split('\n');
    expect(lines[0]).toContain(`days in ${timezone}`);
    expect(lines[3]).toBe(bot);
  });
});
