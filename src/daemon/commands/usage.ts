// /usage (or `/lmx usage` where the CLI has its own /usage): tokens and turns today and over the last 7 days for this
// session, the person asking and this bot, from the usage ledger (issue 30 item 2), days in the bot's `timezone`.
// `larkmux usage` has the detail.
import { larkmuxCommand } from '../../platform/larkmux-command.js';
import { plural, type Translate } from '../../shared/i18n.js';
import { compactCount } from '../../shared/usage.js';
import { daysBackStart } from '../../shared/usage-budget.js';
import { sumEntries, type UsageEntry } from '../../shared/usage-ledger.js';
import { defineCommand } from './types.js';

/** "Last 7 days" is today and the six days before it, days in the bot's `timezone` (as its budget counts them). */
export const USAGE_WEEK_DAYS = 7;

export interface UsageScope {
  now: number;
  appId: string;
  userId: string;
  /** The bot's time zone: where its days start. */
  timezone: string;
  /** The open session here (none: its row says so). */
  sessionId?: string;
}

function figures(entries: readonly UsageEntry[], t: Translate): string {
  const s = sumEntries(entries);
  const cost = s.costedTurns ? t('usage.cost', { cost: s.costUsd.toFixed(2) }) : '';
  return `${t(plural('usage.figures', s.turns), { tokens: compactCount(s.totalTokens), turns: s.turns })}${cost}`;
}

/** The reply: one row per scope, today then the week. `entries` are this week's, any bot. */
export function usageReport(entries: readonly UsageEntry[], scope: UsageScope, t: Translate, cmd: string): string {
  const today = daysBackStart(scope.now, scope.timezone, 0);
  const week = daysBackStart(scope.now, scope.timezone, USAGE_WEEK_DAYS - 1);
  const bot = entries.filter((e) => e.appId === scope.appId && Date.parse(e.at) >= week);
  const row = (who: string, of: readonly UsageEntry[]) =>
    t('usage.row', { who, today: figures(of.filter((e) => Date.parse(e.at) >= today), t), week: figures(of, t) });
  const lines = [t('usage.title', { tz: scope.timezone })];
  lines.push(scope.sessionId ? row(t('usage.who.session'), bot.filter((e) => e.sessionId === scope.sessionId)) : t('usage.noSession'));
  lines.push(row(t('usage.who.you'), bot.filter((e) => e.userId === scope.userId)));
  lines.push(row(t('usage.who.bot'), bot));
  lines.push(t('usage.host', { cmd }));
  return lines.join('\n');
}

export const usageCommand = defineCommand({
  name: 'usage',
  usage: '/usage',
  summary: 'cmd.summary.usage',
  level: 'talk',
  async run(ctx) {
    // The bot's `timezone` (else the host's), as its schedules and budget read days.
    const timezone = ctx.schedules.timezone;
    const read = await ctx.readUsage(daysBackStart(ctx.now, timezone, USAGE_WEEK_DAYS - 1));
    if (!read.ok) return ctx.reply(ctx.t('usage.unreadable', { reason: read.reason }));
    const session = ctx.currentSession();
    const scope: UsageScope = { now: ctx.now, appId: ctx.bot.appId, userId: ctx.invoker.userId, timezone, ...(session ? { sessionId: session.id } : {}) };
    await ctx.reply(usageReport(read.entries, scope, ctx.t, larkmuxCommand()));
  },
});
