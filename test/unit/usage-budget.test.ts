// A bot's daily budget (issue 30 item 3): the level each figure reaches, the warning once a day at 80%, the hold at
// 100%, and the day boundaries in the bot's time zone (DST included).
import { describe, expect, it } from 'vitest';
import { budgetLevel, dayIn, dayStart, decideBudget, nextDayStart, type Budget } from '../../src/shared/usage-budget.js';

describe('the budget level', () => {
  it.each([
    { budget: undefined, tokens: 10 ** 9, cost: 100, level: 'ok' },
    { budget: {}, tokens: 10 ** 9, cost: 100, level: 'ok' },
    { budget: { dailyTokens: 1000 }, tokens: 799, cost: 0, level: 'ok' },
    { budget: { dailyTokens: 1000 }, tokens: 800, cost: 0, level: 'warn' },
    { budget: { dailyTokens: 1000 }, tokens: 999, cost: 0, level: 'warn' },
    { budget: { dailyTokens: 1000 }, tokens: 1000, cost: 0, level: 'over' },
    // Cost counts only where reported: no cost, no level from it.
    { budget: { dailyCostUsd: 5 }, tokens: 10 ** 9, cost: 0, level: 'ok' },
    { budget: { dailyCostUsd: 5 }, tokens: 0, cost: 4.5, level: 'warn' },
    // The higher of the two decides.
    { budget: { dailyTokens: 1000, dailyCostUsd: 5 }, tokens: 100, cost: 5, level: 'over' },
    { budget: { dailyTokens: 1000, dailyCostUsd: 5 }, tokens: 900, cost: 1, level: 'warn' },
  ] as { budget: Budget | undefined; tokens: number; cost: number; level: string }[])('$budget with $tokens tokens, $cost USD → $level', ({ budget, tokens, cost, level }) => {
    expect(budgetLevel(budget, { tokens, costUsd: cost }).level).toBe(level);
  });
});

describe('warn once a day, hold at 100%', () => {
  const budget = { dailyTokens: 1000 };
  it.each([
    { tokens: 500, warnedDay: undefined, warn: false, hold: false, after: undefined },
    { tokens: 850, warnedDay: undefined, warn: true, hold: false, after: '2026-12-04' },
    { tokens: 900, warnedDay: '2026-12-04', warn: false, hold: false, after: '2026-12-04' },
    { tokens: 1200, warnedDay: '2026-12-04', warn: false, hold: true, after: '2026-12-04' },
    // Straight past 100% without the 80% warning: the owner is told once, and new turns wait.
    { tokens: 1200, warnedDay: undefined, warn: true, hold: true, after: '2026-12-04' },
    // Warned yesterday: today is a new day.
    { tokens: 850, warnedDay: '2026-12-03', warn: true, hold: false, after: '2026-12-04' },
  ])('$tokens tokens, warned $warnedDay → warn $warn, hold $hold', ({ tokens, warnedDay, warn, hold, after }) => {
    expect(decideBudget(budget, { tokens, costUsd: 0 }, '2026-12-04', warnedDay)).toEqual({ warn, hold, warnedDay: after });
  });
});

describe('days in the bot time zone', () => {
  it.each([
    { at: '2026-12-04T15:30:00Z', tz: 'Asia/Shanghai', day: '2026-12-04', start: '2026-12-03T16:00:00.000Z', next: '2026-12-04T16:00:00.000Z' },
    { at: '2026-12-04T16:30:00Z', tz: 'Asia/Shanghai', day: '2026-12-05', start: '2026-12-04T16:00:00.000Z', next: '2026-12-05T16:00:00.000Z' },
    { at: '2026-12-04T23:59:59Z', tz: 'UTC', day: '2026-12-04', start: '2026-12-04T00:00:00.000Z', next: '2026-12-05T00:00:00.000Z' },
    // The day the clocks go forward in Berlin is 23 hours long.
    { at: '2026-03-29T12:00:00Z', tz: 'Europe/Berlin', day: '2026-03-29', start: '2026-03-28T23:00:00.000Z', next: '2026-03-29T22:00:00.000Z' },
  ])('$at in $tz is $day', ({ at, tz, day, start, next }) => {
    const ms = Date.parse(at);
    expect(dayIn(ms, tz)).toBe(day);
    expect(new Date(dayStart(ms, tz)).toISOString()).toBe(start);
    expect(new Date(nextDayStart(ms, tz)).toISOString()).toBe(next);
  });
});
