// Each CLI's usage-limit words → state, reset time and excerpt (issue 30.3): the real pinned CLIs' screens, the forms
// other builds and plans print, and reset times across time zones, midnight and dates.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeUsageLimitOf, codexUsageLimitOf, geminiUsageLimitOf } from '../../src/worker/cli/limit-phrases.js';
import { clockTime, cliTimeZone, durationMs, resetEnd, zonedToEpoch, type ShownReset } from '../../src/worker/cli/limit-time.js';
import { adapterFor } from '../../src/worker/cli/registry.js';

const screen = (name: string): string => readFileSync(join(import.meta.dirname, '../fixtures/screens', name), 'utf8');
const at = (iso: string): number => Date.parse(iso);

describe('reset times', () => {
  it.each([
    { text: '10pm', now: '2026-12-04T20:03:00Z', zone: 'UTC', want: '2026-12-04T22:00:00Z' },
    { text: '10:02 PM.', now: '2026-12-04T20:03:00Z', zone: 'UTC', want: '2026-12-04T22:02:00Z' },
    { text: '3pm (Asia/Shanghai)', now: '2026-12-04T05:00:00Z', zone: 'UTC', want: '2026-12-04T07:00:00Z' },
    // 3pm in Shanghai already passed (it is 16:00 there): tomorrow's.
    { text: '3pm (Asia/Shanghai)', now: '2026-12-04T08:00:00Z', zone: 'UTC', want: '2026-12-05T07:00:00Z' },
    // Over midnight: 1am seen at 11pm is tomorrow, in the CLI's own zone.
    { text: '1am', now: '2026-12-04T23:00:00Z', zone: 'UTC', want: '2026-12-05T01:00:00Z' },
    { text: '12:30 AM', now: '2026-12-31T23:50:00+08:00', zone: 'Asia/Shanghai', want: '2027-01-01T00:30:00+08:00' },
    { text: '12pm', now: '2026-12-04T09:00:00Z', zone: 'UTC', want: '2026-12-04T12:00:00Z' },
    // A minute late is still this minute (the screen was read just after it printed).
    { text: '10:02 PM', now: '2026-12-04T22:02:30Z', zone: 'UTC', want: '2026-12-04T22:02:00Z' },
    { text: '9am', now: '2026-03-08T12:00:00Z', zone: 'America/New_York', want: '2026-03-08T13:00:00Z' },
    { text: 'Dec 5, 2026 3:04 AM', now: '2026-12-04T20:00:00Z', zone: 'Europe/Berlin', want: '2026-12-05T02:04:00Z' },
    { text: 'Jan 2nd 9:15 am', now: '2026-12-30T20:00:00Z', zone: 'UTC', want: '2027-01-02T09:15:00Z' },
    // Codex's next-day form, and a time shown to the second (its precision is the second, not the minute).
    { text: 'Dec 5th, 2026 12:32 AM.', now: '2026-12-04T20:03:00Z', zone: 'UTC', want: '2026-12-05T00:32:00Z' },
    { text: '8:54:30 PM', now: '2026-12-04T20:03:00Z', zone: 'UTC', want: '2026-12-04T20:54:30Z', precision: 'second' },
    { text: 'Dec 5, 2026 3:04:05 AM', now: '2026-12-04T20:00:00Z', zone: 'UTC', want: '2026-12-05T03:04:05Z', precision: 'second' },
  ])('$text at $now ($zone)', ({ text, now, zone, want, precision }) => {
    expect(clockTime(text, at(now), () => zone)).toEqual({ atMs: at(want), precision: precision ?? 'minute' });
  });

  // The latest moment a shown reset may mean: a minute's end, a second's end, a count from now as it is.
  it.each<[ShownReset, number]>([
    [{ atMs: at('2026-12-04T20:54:00Z'), precision: 'minute' }, at('2026-12-04T20:55:00Z')],
    [{ atMs: at('2026-12-04T20:54:30Z'), precision: 'second' }, at('2026-12-04T20:54:31Z')],
    [{ atMs: at('2026-12-04T20:03:12Z'), precision: 'relative' }, at('2026-12-04T20:03:12Z')],
  ])('the end of %j', (reset, end) => expect(resetEnd(reset)).toBe(end));

  it.each([
    ['2 hours 5 minutes', 7_500_000], ['12s', 12_000], ['3 days 1 hour', 262_800_000], ['1.5s', 1_500], ['45 mins', 2_700_000], ['soon', null],
  ])('duration %s', (text, ms) => expect(durationMs(text)).toBe(ms));

  it('no clock time in a bare count or a version', () => {
    expect(clockTime('attempt 6/10', 0, () => 'UTC')).toBeNull();
    expect(clockTime('gemini-3.5-flash-lite', 0, () => 'UTC')).toBeNull();
  });

  it('a wall-clock time over a DST change', () => {
    expect(zonedToEpoch(2026, 3, 29, 3, 30, 'Europe/Berlin')).toBe(at('2026-03-29T01:30:00Z'));
    expect(cliTimeZone({ TZ: 'Asia/Tokyo' })).toBe('Asia/Tokyo');
    expect(cliTimeZone({ TZ: ':Europe/Paris' })).toBe('Europe/Paris');
    expect(cliTimeZone({ TZ: 'Not/AZone' })).toBe(cliTimeZone({}));
  });
});

type Row = [string, string | null, string, string, { state: string; untilMs?: string; precision?: string; excerpt: RegExp } | null];
const NOW = '2026-12-04T20:03:00Z';
const CASES: Row[] = [
  // cli, fixture (null = the text itself), text, zone, want
  ['claude', 'claude-29-limit-retrying.txt', '', 'UTC', { state: 'limited', untilMs: '2026-12-04T22:40:00Z', precision: 'minute', excerpt: /^5-hour limit reached · retrying in 1s \(10:39pm\) · attempt 3\/10$/ }],
  ['claude', 'claude-30-limit-gave-up.txt', '', 'UTC', { state: 'limited', excerpt: /^API Error: Request rejected \(429\) · This request would exceed your account's rate limit\. Please try again later\.$/ }],
  ['claude', null, "You've hit your limit · resets 3pm (Asia/Shanghai)", 'UTC', { state: 'limited', untilMs: '2026-12-05T07:01:00Z', precision: 'minute', excerpt: /resets 3pm/ }],
  ['claude', null, 'Claude usage limit reached. Your limit will reset at 11pm.', 'UTC', { state: 'limited', untilMs: '2026-12-04T23:01:00Z', excerpt: /usage limit reached/ }],
  // The clock time is the window's reset, a minute away: a hold until that minute's end (Claude's own retry is "in 5s").
  ['claude', null, '✻ 5-hour limit reached · retrying in 5s (8:04pm) · attempt 1/10', 'UTC', { state: 'limited', untilMs: '2026-12-04T20:05:00Z', precision: 'minute', excerpt: /retrying/ }],
  ['claude', null, '✻ 5-hour limit reached · retrying in 5s · attempt 1/10', 'UTC', { state: 'throttled', excerpt: /retrying/ }],
  // A status on the right edge below the line is not part of the message.
  ['claude', null, '✻ 5-hour limit reached · retrying in 1s (10:29pm) · attempt 1/10\n                                                  ◐ medium · /effort', 'UTC', { state: 'limited', untilMs: '2026-12-04T22:30:00Z', excerpt: /attempt 1\/10$/ }],
  ['claude', null, '● Context limit reached · /compact or /clear to continue', 'UTC', null],
  ['claude', 'claude-13-idle-seeded.txt', '', 'UTC', null],
  ['codex', 'codex-17-usage-limit.txt', '', 'UTC', { state: 'limited', untilMs: '2026-12-04T22:36:00Z', precision: 'minute', excerpt: /^You’ve hit your usage limit\. .* try again at 10:35 PM\.$/ }],
  // A reset on the next day: Codex writes the date, and the sentence wraps onto a second line (seen on the real Codex).
  ['codex', null, '■ You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/\nusage to purchase more credits or try again at Dec 5th, 2026 12:32 AM.', 'UTC', { state: 'limited', untilMs: '2026-12-05T00:33:00Z', precision: 'minute', excerpt: /settings\/ usage to purchase more credits or try again at Dec 5th, 2026 12:32 AM\.$/ }],
  // A reset shown to the minute is held to that minute's end, however near: it is never a throttle (issue 30.3).
  ['codex', null, '■ You’ve hit your usage limit. Upgrade to Pro or try again at 8:04 PM.', 'UTC', { state: 'limited', untilMs: '2026-12-04T20:05:00Z', precision: 'minute', excerpt: /try again at 8:04 PM/ }],
  ['codex', null, '■ You’ve hit your usage limit. Upgrade to Pro or try again at 8:03 PM.', 'UTC', { state: 'limited', untilMs: '2026-12-04T20:04:00Z', precision: 'minute', excerpt: /try again at 8:03 PM/ }],
  ['codex', null, '■ You’ve hit your usage limit. Try again at 8:03:40 PM.', 'UTC', { state: 'limited', untilMs: '2026-12-04T20:03:41Z', precision: 'second', excerpt: /8:03:40 PM/ }],
  ['codex', null, "■ You've hit your usage limit. Try again in 2 hours 5 minutes.", 'UTC', { state: 'limited', untilMs: '2026-12-04T22:08:00Z', precision: 'relative', excerpt: /Try again in 2 hours/ }],
  ['codex', null, '■ Rate limit reached for requests. Please try again in 3s. retrying 1/5', 'UTC', { state: 'throttled', untilMs: '2026-12-04T20:03:03Z', excerpt: /Rate limit/ }],
  ['codex', 'codex-18-rate-limit-retrying.txt', '', 'UTC', { state: 'throttled', excerpt: /^Exceeded retry limit, last status: 429 Too Many Requests$/ }],
  ['codex', 'codex-05-reply.txt', '', 'UTC', null],
  ['gemini', 'gemini-13-usage-limit.txt', '', 'UTC', { state: 'limited', excerpt: /^Usage limit reached for gemini-3\.5-flash-lite\.$/ }],
  ['gemini', null, '✕ [API Error: You exceeded your current quota, please check your plan and billing details. Please retry in 30s.]', 'UTC', { state: 'throttled', untilMs: '2026-12-04T20:03:30Z', excerpt: /exceeded your current quota/ }],
  ['gemini', 'gemini-14-limit-all-pro.txt', '', 'UTC', { state: 'limited', excerpt: /^Usage limit reached for all Pro models\.$/ }],
  ['gemini', 'gemini-05-reply.txt', '', 'UTC', null],
];
const OF = { claude: claudeUsageLimitOf, codex: codexUsageLimitOf, gemini: geminiUsageLimitOf } as Record<string, typeof claudeUsageLimitOf>;

describe.each(CASES)('%s usage limit: %s %s', (cli, fixture, text, zone, want) => {
  it(want ? `${want.state}` : 'none', () => {
    const got = OF[cli]!(fixture ? screen(fixture) : text, at(NOW), () => zone);
    if (!want) return expect(got).toBeNull();
    expect(got?.state).toBe(want.state);
    expect(got?.untilMs).toBe(want.untilMs ? at(want.untilMs) : undefined);
    if (want.precision) expect(got?.precision).toBe(want.precision);
    expect(got?.excerpt).toMatch(want.excerpt);
  });
});

it('a shell or a custom program has no vendor limit to read', () => {
  const shell = adapterFor('shell');
  expect(shell.ok && shell.adapter.usageLimitOf).toBeFalsy();
  const custom = adapterFor({ command: ['sh'] } as never);
  expect(custom.ok && custom.adapter.usageLimitOf).toBeFalsy();
  const claude = adapterFor('claude-code');
  expect(claude.ok && claude.adapter.usageLimitOf).toBe(claudeUsageLimitOf);
});

// The zone is asked for only when a limit line gives a clock time: resolving one loads ICU's time-zone data into the
// worker (~6.5 MB of RSS), which an idle worker or an ordinary screen must not pay for.
describe.each([
  ['claude', 'claude-06-reply.txt', '', 0],
  ['codex', 'codex-05-reply.txt', '', 0],
  ['gemini', 'gemini-05-reply.txt', '', 0],
  ['claude', 'claude-30-limit-gave-up.txt', '', 0],
  ['gemini', null, '✕ [API Error: You exceeded your current quota, please check your plan and billing details. Please retry in 30s.]', 0],
  ['claude', 'claude-29-limit-retrying.txt', '', 1],
  ['claude', null, "You've hit your limit · resets 11pm", 1],
  // A reset counted from now, or in a zone the line names itself, needs no zone of the CLI's.
  ['claude', null, "You've hit your limit · resets in 2 hours", 0],
  ['codex', null, "■ You've hit your usage limit. Try again in 2 hours 5 minutes.", 0],
  ['claude', null, "You've hit your limit · resets 3pm (Asia/Shanghai)", 0],
] as const)('%s asks for the time zone: %s %s', (cli, fixture, text, asks) => {
  it(`${asks} time(s)`, () => {
    let asked = 0;
    OF[cli]!(fixture ? screen(fixture) : text, at(NOW), () => { asked++; return 'UTC'; });
    expect(asked).toBe(asks);
  });
});
