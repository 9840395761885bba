// A bot's `budget` as config.json says it now (issue 30 item 3): the owner raises it by editing the file, and the next
// budget check sees it, without a restart. The file is read again only when its modification time, size or inode
// changed; a file that does not parse keeps the budget as it was and says so in one log line per version of the file.
import { readFile, stat } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { parseConfigJson } from '../../shared/config.js';
import { budgetInConfig, type Budget } from '../../shared/usage-budget.js';
import type { Logger } from '../../platform/log.js';

export interface BudgetSourceOptions {
  /** config.json */
  path: string;
  bot: { appId: string; name: string; budget?: Budget | undefined };
  log: Logger;
}

/** What tells one version of the file from another without reading it. */
function stampOf(s: { mtimeMs: number; size: number; ino: number }): string {
  return `${s.mtimeMs}:${s.size}:${s.ino}`;
}

export class BudgetSource {
  private budget: Budget | undefined;
  private stamp: string | null;
  private reading: Promise<Budget | undefined> | null = null;

  constructor(private readonly opts: BudgetSourceOptions) {
    this.budget = opts.bot.budget;
    // The daemon read the file just before: that version's budget is the one it started with.
    try {
      this.stamp = stampOf(statSync(opts.path));
    } catch {
      this.stamp = null;
    }
  }

  /** The budget now: the file is read again when it changed since the last look (one read at a time). */
  current(): Promise<Budget | undefined> {
    this.reading ??= this.look().finally(() => (this.reading = null));
    return this.reading;
  }

  private async look(): Promise<Budget | undefined> {
    const { path, log, bot } = this.opts;
    let stamp: string;
    try {
      stamp = stampOf(await stat(path));
    } catch (e) {
      return this.keep(`config:${(e as NodeJS.ErrnoException).code ?? 'error'}`, `cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? 'error'}); the budget of bot "${bot.name}" stays as it was`);
    }
    if (stamp === this.stamp) return this.budget;
    this.stamp = stamp;
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      log.warn(`cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? 'error'}); the budget of bot "${bot.name}" stays as it was`);
      return this.budget;
    }
    const json = parseConfigJson(text);
    const read = json.ok ? budgetInConfig(json.raw, bot) : { ok: false as const, error: json.error };
    if (!read.ok) {
      log.warn(`${read.error}; the budget of bot "${bot.name}" stays as it was until the file is fixed`);
      return this.budget;
    }
    if (JSON.stringify(read.budget) !== JSON.stringify(this.budget)) log.info({ bot: bot.name, budget: read.budget ?? null }, 'budget changed in config.json');
    this.budget = read.budget;
    return this.budget;
  }

  /** A file that cannot even be looked at: logged once until it can again. */
  private keep(stamp: string, line: string): Budget | undefined {
    if (this.stamp !== stamp) this.opts.log.warn(line);
    this.stamp = stamp;
    return this.budget;
  }
}
