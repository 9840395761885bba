// Schedules, pure: durations, /in, /at, /every (interval, clock, cron) read in a time zone, the next due time, catch-up.
import { describe, expect, it } from 'vitest';
import { decideDue, formatWhen, nextDue, parseAt, parseDuration, parseEvery, parseIn, type Schedule } from '../../src/shared/schedule.js';

const NOW = Date.parse('2026-12-04T10:00:00Z'); // Friday; 18:00 in Shanghai, 05:00 in New York
const SH = 'Asia/Shanghai';
const NY = 'America/New_York';

describe('parseDuration', () => {
  it.each([
    ['3s', 3000], ['30m', 1_800_000], ['2h', 7_200_000], ['1h30m', 5_400_000], ['1d', 86_400_000], ['1w', 604_800_000], ['10S', 10_000],
    ['', null], ['3', null], ['m', null], ['0s', null], ['3x', null], ['-3s', null], ['1.5h', null],
  ])('%s → %s', (text, ms) => expect(parseDuration(text)).toBe(ms));
});

describe('parseIn', () => {
  it.each([
    ['30m check the deploy', { ok: true, value: { spec: { kind: 'once', at: NOW + 1_800_000 }, prompt: 'check the deploy' } }],
    ['3s  echo hi\nsecond line', { ok: true, value: { spec: { kind: 'once', at: NOW + 3000 }, prompt: 'echo hi\nsecond line' } }],
    ['30m', { ok: false, error: 'schedule.err.noPrompt' }],
    ['soon do it', { ok: false, error: 'schedule.err.duration' }],
    ['400d do it', { ok: false, error: 'schedule.err.tooFar' }],
  ])('%j', (text, want) => expect(parseIn(text, NOW)).toEqual(want));
});

describe('parseAt (in the bot time zone)', () => {
  it.each([
    // 18:00 in Shanghai is now: the next one is tomorrow.
    ['18:00 x', SH, Date.parse('2026-12-05T10:00:00Z')],
    ['18:30 x', SH, Date.parse('2026-12-04T10:30:00Z')],
    ['9:05 x', NY, Date.parse('2026-12-04T14:05:00Z')],
    ['2026-12-24 09:00 x', SH, Date.parse('2026-12-24T01:00:00Z')],
    ['2026-12-24T09:00 x', NY, Date.parse('2026-12-24T14:00:00Z')],
    ['2027-07-01 09:00 x', NY, Date.parse('2027-07-01T13:00:00Z')], // summer time
  ])('%s in %s', (text, tz, at) => expect(parseAt(text, NOW, tz)).toEqual({ ok: true, value: { spec: { kind: 'once', at }, prompt: 'x' } }));
});

describe('parseEvery', () => {
  it.each([
    ['2h run tests', { kind: 'interval', everyMs: 7_200_000, startAt: NOW + 7_200_000 }, 'run tests'],
    ['5s ping', { kind: 'interval', everyMs: 5000, startAt: NOW + 5000 }, 'ping'],
    ['1d 09:00 run the nightly test summary', { kind: 'cron', expr: '0 9 * * *' }, 'run the nightly test summary'],
    ['2d 19:00 x', { kind: 'interval', everyMs: 172_800_000, startAt: Date.parse('2026-12-04T11:00:00Z') }, 'x'],
    ['"0 */2 * * 1-5" summarise the queue', { kind: 'cron', expr: '0 */2 * * 1-5' }, 'summarise the queue'],
    ['“0 9 * * 1” weekly', { kind: 'cron', expr: '0 9 * * 1' }, 'weekly'],
  ])('%s', (text, spec, prompt) => expect(parseEvery(text, NOW, SH)).toEqual({ ok: true, value: { spec, prompt } }));
});

describe('what /at and /every refuse', () => {
  it.each([
    [parseAt, '2026-12-01 09:00 x', 'schedule.err.past'],
    [parseAt, '25:00 x', 'schedule.err.time'],
    [parseAt, '2027-02-30 09:00 x', 'schedule.err.time'],
    [parseAt, '2027-13-01 09:00 x', 'schedule.err.time'],
    [parseAt, 'tomorrow x', 'schedule.err.time'],
    [parseAt, '18:30', 'schedule.err.noPrompt'],
    [parseAt, '2030-01-01 09:00 x', 'schedule.err.tooFar'],
    [parseEvery, '1s x', 'schedule.err.tooOften'],
    [parseEvery, 'often x', 'schedule.err.every'],
    [parseEvery, '"0 99 * * *" x', 'schedule.err.cron'],
    [parseEvery, '"* *" x', 'schedule.err.cron'],
    [parseEvery, '"0 9 * * *"', 'schedule.err.noPrompt'],
    [parseEvery, '1h', 'schedule.err.noPrompt'],
  ])('%o %s → %s', (parse, text, error) => expect(parse(text, NOW, SH)).toEqual({ ok: false, error }));
});

describe('nextDue', () => {
  it.each([
    ['once ahead', { kind: 'once', at: NOW + 5 } as const, NOW, SH, NOW + 5],
    ['once gone', { kind: 'once', at: NOW } as const, NOW, SH, null],
    ['interval before start', { kind: 'interval', everyMs: 1000, startAt: NOW + 500 } as const, NOW, SH, NOW + 500],
    ['interval many steps missed: the next after now', { kind: 'interval', everyMs: 1000, startAt: NOW - 10_500 } as const, NOW, SH, NOW + 500],
    ['interval on a due time: the one after', { kind: 'interval', everyMs: 1000, startAt: NOW - 1000 } as const, NOW, SH, NOW + 1000],
    ['cron in Shanghai', { kind: 'cron', expr: '0 9 * * *' } as const, NOW, SH, Date.parse('2026-12-05T01:00:00Z')],
    ['cron in New York', { kind: 'cron', expr: '0 9 * * *' } as const, NOW, NY, Date.parse('2026-12-04T14:00:00Z')],
    ['cron keeps 09:00 across the March change', { kind: 'cron', expr: '0 9 * * *' } as const, Date.parse('2027-03-14T12:00:00Z'), NY, Date.parse('2027-03-14T13:00:00Z')],
    ['cron weekdays only', { kind: 'cron', expr: '0 */2 * * 1-5' } as const, Date.parse('2026-12-05T00:00:00Z'), 'UTC', Date.parse('2026-12-07T00:00:00Z')],
  ])('%s', (_n, spec, after, tz, want) => expect(nextDue(spec, after, tz)).toBe(want));
});

describe('decideDue', () => {
  const base = (over: Partial<Schedule>): Pick<Schedule, 'spec' | 'nextRunAt' | 'timezone' | 'paused'> => ({ spec: { kind: 'interval', everyMs: 3600_000, startAt: NOW - 10 * 3600_000 }, nextRunAt: NOW, timezone: 'UTC', paused: false, ...over });
  it.each([
    ['not due yet', base({ nextRunAt: NOW + 1 }), false, 'once', null],
    ['paused', base({ paused: true }), false, 'once', null],
    ['a fired one-shot', base({ spec: { kind: 'once', at: NOW - 5 }, nextRunAt: null }), false, 'once', null],
    ['due now', base({}), false, 'once', { fire: true, notice: null, next: NOW + 3600_000 }],
    ['a late timer while running fires without notice', base({ nextRunAt: NOW - 3 * 3600_000 }), false, 'skip', { fire: true, notice: null, next: NOW + 3600_000 }],
    ['a little late at start is not missed', base({ nextRunAt: NOW - 3_000 }), true, 'skip', { fire: true, notice: null, next: NOW + 3600_000 }],
    ['missed many times, once: fires once', base({ nextRunAt: NOW - 9 * 3600_000 }), true, 'once', { fire: true, notice: 'caughtUp', next: NOW + 3600_000 }],
    ['missed, skip', base({ nextRunAt: NOW - 2 * 3600_000 }), true, 'skip', { fire: false, notice: 'skipped', next: NOW + 3600_000 }],
    ['missed one-shot, once', base({ spec: { kind: 'once', at: NOW - 7200_000 }, nextRunAt: NOW - 7200_000 }), true, 'once', { fire: true, notice: 'caughtUp', next: null }],
  ] as const)('%s', (_n, s, atStart, catchUp, want) => expect(decideDue(s, NOW, atStart, catchUp)).toEqual(want));
});

describe('formatWhen', () => {
  it.each([
    [NOW, SH, '2026-12-04 18:00'],
    [NOW + 3000, 'UTC', '2026-12-04 10:00:03'],
  ])('%s %s', (at, tz, want) => expect(formatWhen(at, tz)).toBe(want));
});
