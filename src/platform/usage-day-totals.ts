// Each bot's tokens and cost today, for its budget (issue 30 item 3), kept in memory and brought up to date from the
// usage ledger before each budget check by reading only the lines appended since the last look. The whole day is read
// again only when the day changed (in the time zone the totals are counted in) or the live file was rotated/replaced.
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { dayIn, dayStart, type DayTotals } from '../shared/usage-budget.js';
import { parseUsageLine } from '../shared/usage-ledger.js';
import { totalTokens } from '../shared/usage.js';
import { USAGE_LEDGER_FILES } from './usage-ledger-file.js';

interface LiveRead {
  ino: number;
  /** Bytes up to the end of the last whole line read: the next read starts here. */
  offset: number;
}

export class LedgerDayTotals {
  private day: string | null = null;
  private since = 0;
  private live: LiveRead | null = null;
  private sums = new Map<string, DayTotals>();
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly dir: string, private readonly tz: string) {}

  /** `appId`'s totals for the day of `now`. Looks run one at a time, in call order. */
  totals(appId: string, now: number): Promise<DayTotals> {
    const next = this.chain.then(() => this.catchUp(now)).then(() => ({ ...(this.sums.get(appId) ?? { tokens: 0, costUsd: 0 }) }));
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async catchUp(now: number): Promise<void> {
    const day = dayIn(now, this.tz);
    const st = await stat(join(this.dir, USAGE_LEDGER_FILES.current)).catch(() => null);
    const same = day === this.day && this.live && st && st.ino === this.live.ino && st.size >= this.live.offset;
    if (!same) return this.rescan(day, now);
    if (st.size > this.live!.offset) this.live = await this.readLive(this.live!.offset);
  }

  /** The day from the start: the live file first (so a rotation during the scan is seen as one), then rotated files of today. */
  private async rescan(day: string, now: number): Promise<void> {
    this.day = day;
    this.since = dayStart(now, this.tz);
    this.sums = new Map();
    this.live = await this.readLive(0);
    const names = await readdir(this.dir).catch(() => [] as string[]);
    for (const f of names.filter((n) => USAGE_LEDGER_FILES.rotated.test(n))) {
      const path = join(this.dir, f);
      const st = await stat(path).catch(() => null);
      // Last written before today, or the live file just read under its rotated name: nothing to add.
      if (!st || st.mtimeMs < this.since || st.ino === this.live?.ino) continue;
      this.addLines(await readFile(path, 'utf8').catch(() => ''));
    }
  }

  /** Reads the live file's whole lines from `offset`; a line still being written is left for the next look. */
  private async readLive(offset: number): Promise<LiveRead | null> {
    const fh = await open(join(this.dir, USAGE_LEDGER_FILES.current), 'r').catch(() => null);
    if (!fh) return null;
    try {
      const { ino, size } = await fh.stat();
      const buf = Buffer.alloc(Math.max(0, size - offset));
      const { bytesRead } = buf.length ? await fh.read(buf, 0, buf.length, offset) : { bytesRead: 0 };
      const whole = buf.subarray(0, bytesRead).lastIndexOf(0x0a) + 1;
      this.addLines(buf.subarray(0, whole).toString('utf8'));
      return { ino, offset: offset + whole };
    } finally {
      await fh.close();
    }
  }

  private addLines(text: string): void {
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const e = parseUsageLine(line);
      if (!e || Date.parse(e.at) < this.since) continue;
      const t = this.sums.get(e.appId) ?? { tokens: 0, costUsd: 0 };
      this.sums.set(e.appId, { tokens: t.tokens + (e.usage ? totalTokens(e.usage) : 0), costUsd: t.costUsd + (e.usage?.costUsd ?? 0) });
    }
  }
}
