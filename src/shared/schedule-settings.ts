// The per-bot settings of schedules (config.json `timezone`, `catchUp`), apart from schedule.ts so that reading the
// config (the `larkmux` command does) never loads croner.
import { z } from 'zod';

export const CatchUpSchema = z.enum(['once', 'skip']);
export type CatchUp = z.infer<typeof CatchUpSchema>;

/** The host's time zone, the default for a bot that names none. */
export function hostTimezone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function isTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
