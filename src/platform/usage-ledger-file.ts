// The usage ledger on disk (issue 30 item 2): `LARKMUX_HOME/usage/usage.jsonl`, one entry a line, appended and synced
// per turn; past a size it is renamed `usage-<time>.jsonl` and a new one begun; the oldest rotated files go past a count.
// One writer (the daemon); readers (`/usage`, `larkmux usage`) skip a line they cannot read, such as one torn by a crash.
import { open, readdir, readFile, rename, stat, unlink, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseUsageLine, type UsageEntry } from '../shared/usage-ledger.js';
import type { Logger } from './log.js';

export const USAGE_LEDGER_LIMITS = {
  /** The live file is rotated before it grows past this (about 13,000 turns). */
  maxFileBytes: 4 * 1024 * 1024,
  /** Rotated files kept; the oldest beyond this are removed. */
  keepRotated: 50,
} as const;

/** The live file, and `usage-<UTC time>-<n>.jsonl` for rotated ones (names sort in the order they were rotated). */
export const USAGE_LEDGER_FILES = { current: 'usage.jsonl', rotated: /^usage-\d{8}T\d{9}Z-\d{3}\.jsonl$/ } as const;
const CURRENT = USAGE_LEDGER_FILES.current;
const ROTATED = USAGE_LEDGER_FILES.rotated;

export function usageLedgerDir(home: string): string {
  return join(home, 'usage');
}

function rotatedName(now: number, n: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:.]/g, '');
  return `usage-${stamp}-${String(n).padStart(3, '0')}.jsonl`;
}

/** Some filesystems refuse to fsync a directory; the line itself is synced either way. */
async function syncDir(dir: string): Promise<void> {
  const dh = await open(dir, 'r').catch(() => null);
  if (dh) await dh.sync().catch(() => undefined).finally(() => dh.close());
}

export interface UsageLedgerOptions {
  dir: string;
  log: Logger;
  maxFileBytes?: number;
  keepRotated?: number;
}

/** The daemon's appender. Appends run one at a time, in call order; a failed append is logged and lost, never retried. */
export class UsageLedger {
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly opts: UsageLedgerOptions) {}

  /** Resolves once the line is on disk (or its failure logged). */
  append(entry: UsageEntry): Promise<void> {
    const next = this.chain.then(() => this.write(`${JSON.stringify(entry)}\n`)).catch((err: unknown) => {
      this.opts.log.error({ err: (err as NodeJS.ErrnoException).code ?? String(err) }, 'usage ledger: could not append a turn');
    });
    this.chain = next;
    return next;
  }

  private async write(line: string): Promise<void> {
    const { dir } = this.opts;
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, CURRENT);
    const size = await stat(path).then((s) => s.size, () => 0);
    const rotated = size > 0 && size + Buffer.byteLength(line) > (this.opts.maxFileBytes ?? USAGE_LEDGER_LIMITS.maxFileBytes);
    if (rotated) await this.rotate(path);
    const fh = await open(path, 'a+', 0o600);
    try {
      // A crash mid-append can leave a line without its newline: start on a fresh line so the torn one stays alone.
      const { size: now } = await fh.stat();
      let torn = false;
      if (now > 0) {
        const last = Buffer.alloc(1);
        await fh.read(last, 0, 1, now - 1);
        torn = last[0] !== 0x0a;
      }
      await fh.appendFile(torn ? `\n${line}` : line, 'utf8');
      await fh.datasync();
    } finally {
      await fh.close();
    }
    // A new file (the first, or after a rotation) is durable only once its directory entry is.
    if (size === 0 || rotated) await syncDir(dir);
  }

  private async rotate(path: string): Promise<void> {
    const { dir } = this.opts;
    const now = Date.now();
    let n = 0;
    while (await stat(join(dir, rotatedName(now, n))).then(() => true, () => false)) n += 1;
    await rename(path, join(dir, rotatedName(now, n)));
    const rotated = (await readdir(dir)).filter((f) => ROTATED.test(f)).sort();
    const extra = rotated.length - (this.opts.keepRotated ?? USAGE_LEDGER_LIMITS.keepRotated);
    for (const f of rotated.slice(0, Math.max(0, extra))) await unlink(join(dir, f)).catch(() => undefined);
  }
}

export interface UsageRead {
  /** Entries at or after `sinceMs`, oldest file first, in file order. */
  entries: UsageEntry[];
  /** Lines that are not entries (torn, damaged or from a newer larkmux). */
  skipped: number;
}

/** Reads the ledger (rotated files and the live one). A rotated file last written before `sinceMs` is not opened. */
export async function readUsageLedger(dir: string, sinceMs = 0): Promise<UsageRead> {
  const names = await readdir(dir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [] as string[];
    throw e;
  });
  const files = [...names.filter((f) => ROTATED.test(f)).sort(), ...(names.includes(CURRENT) ? [CURRENT] : [])];
  const out: UsageRead = { entries: [], skipped: 0 };
  for (const f of files) {
    const path = join(dir, f);
    if (f !== CURRENT && (await stat(path)).mtimeMs < sinceMs) continue;
    const text = await readFile(path, 'utf8');
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const entry = parseUsageLine(line);
      if (!entry) out.skipped += 1;
      else if (Date.parse(entry.at) >= sinceMs) out.entries.push(entry);
    }
  }
  return out;
}
