// `larkmux schedules [--json]`: every bot's schedules on this host (issue 30 item 1), read from the stores beside the
// session stores, so it answers whether the daemon runs or not. Changing one stays in the topic (/schedules card).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readConfigFile } from '../../platform/config-file.js';
import { readRecordEnvelope } from '../../platform/durable-file.js';
import { SCHEDULE_STORE_FORMAT, ScheduleSchema, formatWhen, type Schedule } from '../../shared/schedule-record.js';
import { EXIT, type CliCommand } from '../types.js';

const SCHEDULES_FILE = /^sessions-(.+)\.schedules\.json$/;

export interface ScheduleListing {
  bot: string;
  appId: string;
  schedules: Schedule[];
  /** Records the daemon's own load would drop (kept out of the list, counted so nothing is silently hidden). */
  unreadable: number;
  /** Set when the file itself could not be read as a schedules store. */
  error?: string;
}

/** Reads every `sessions-<appId>.schedules.json` in `home` by the store's own schema; never changes a file. */
export function readScheduleFiles(home: string, botNames: ReadonlyMap<string, string>): ScheduleListing[] {
  let names: string[];
  try {
    names = readdirSync(home).filter((f) => SCHEDULES_FILE.test(f)).sort();
  } catch {
    return [];
  }
  return names.map((f) => {
    const appId = SCHEDULES_FILE.exec(f)![1]!;
    const base = { bot: botNames.get(appId) ?? appId, appId };
    const env = readRecordEnvelope(join(home, f), SCHEDULE_STORE_FORMAT);
    if (!env.ok) return { ...base, schedules: [], unreadable: 0, error: `${f}: not a schedules store this larkmux can read (${env.message})` };
    const schedules: Schedule[] = [];
    let unreadable = 0;
    for (const r of env.value) {
      const parsed = ScheduleSchema.safeParse(r);
      if (parsed.success) schedules.push(parsed.data);
      else unreadable += 1;
    }
    schedules.sort((a, b) => (a.nextRunAt ?? Infinity) - (b.nextRunAt ?? Infinity));
    return { ...base, schedules, unreadable };
  });
}

function stateOf(s: Schedule): string {
  if (s.paused) return 'paused';
  return s.nextRunAt === null ? 'done' : 'active';
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export const schedules: CliCommand = {
  name: 'schedules',
  summary: 'Every bot\'s schedules (/every, /at, /in) with their next run, from the schedule stores',
  flags: [{ name: 'json', description: 'Print machine-readable JSON' }],
  async run({ flags, paths, env, out, err }) {
    const cfg = readConfigFile(paths.config, env);
    const botNames = new Map<string, string>(cfg.ok ? cfg.config.bots.map((b) => [b.appId, b.name]) : []);
    const listings = readScheduleFiles(paths.home, botNames);
    for (const l of listings) if (l.error) err(l.error);
    if (flags.json) {
      out(JSON.stringify(listings.map(({ bot, appId, schedules: list, unreadable, error }) => ({ bot, appId, unreadable, ...(error ? { error } : {}), schedules: list })), null, 2));
      return listings.some((l) => l.error) ? EXIT.failure : EXIT.ok;
    }
    const all = listings.flatMap((l) => l.schedules.map((s) => ({ bot: l.bot, s })));
    if (!all.length) out('no schedules (create one in a topic: /in 30m …, /at 09:00 …, /every 1d 09:00 …)');
    else {
      out(['id'.padEnd(12), 'bot'.padEnd(10), 'state'.padEnd(6), 'next run'.padEnd(26), 'creator'.padEnd(14), 'schedule'].join(' '));
      for (const { bot, s } of all) {
        const next = s.nextRunAt === null ? '-' : `${formatWhen(s.nextRunAt, s.timezone)} ${s.timezone}`;
        out([s.id, bot.padEnd(10), stateOf(s).padEnd(6), next.padEnd(26), oneLine(s.creatorName ?? s.creatorId, 14).padEnd(14), oneLine(s.text, 60)].join(' '));
      }
    }
    const unreadable = listings.reduce((n, l) => n + l.unreadable, 0);
    if (unreadable) err(`${unreadable} schedule record(s) could not be read and are not listed (the daemon keeps a copy when it drops them)`);
    return listings.some((l) => l.error) ? EXIT.failure : EXIT.ok;
  },
};
