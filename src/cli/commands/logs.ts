// `larkmux logs [-f] [-n N] [--json]`: the last lines of the daemon log, readable (level names, local times) unless --json.
import { createReadStream, existsSync, statSync, watchFile, unwatchFile } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { formatLogLine } from '../log-format.js';
import { EXIT, type CliCommand } from '../types.js';

export const LOG_TAIL = { defaultLines: 100, followPollMs: 250 } as const;

export const logs: CliCommand = {
  name: 'logs',
  summary: 'Print the daemon log (-f to follow)',
  flags: [
    { name: 'follow', short: 'f', description: 'Keep printing new lines' },
    { name: 'lines', short: 'n', value: 'N', description: `How many lines to show (default ${LOG_TAIL.defaultLines}; -n50 and -n 50 both work)` },
    { name: 'json', description: 'Print the raw JSON lines (for jq and scripts)' },
  ],
  async run({ flags, paths, cmd, out, err }) {
    const n = flags.lines === undefined ? LOG_TAIL.defaultLines : Number(flags.lines);
    if (!Number.isInteger(n) || n < 0) {
      err('--lines needs a whole number, e.g. -n 50');
      return EXIT.usage;
    }
    if (!existsSync(paths.logFile)) {
      out(`no log yet at ${paths.logFile} (start the daemon with: ${cmd} start)`);
      return flags.follow ? EXIT.failure : EXIT.ok;
    }
    const colour = process.stdout.isTTY === true;
    const show = flags.json ? (l: string) => l : (l: string) => formatLogLine(l, { colour });
    const text = await readFile(paths.logFile, 'utf8');
    const lines = text.split('\n').filter(Boolean);
    for (const l of n === 0 ? [] : lines.slice(-n)) out(show(l));
    if (!flags.follow) return EXIT.ok;
    let pos = statSync(paths.logFile).size;
    let partial = '';
    await new Promise<void>((resolve) => {
      const onChange = () => {
        const size = statSync(paths.logFile).size;
        if (size < pos) pos = 0; // truncated or rotated
        if (size === pos) return;
        const stream = createReadStream(paths.logFile, { start: pos, end: size - 1, encoding: 'utf8' });
        pos = size;
        stream.on('data', (d) => {
          // Lines may arrive split across reads: print whole lines only.
          const chunk = partial + String(d);
          const parts = chunk.split('\n');
          partial = parts.pop() ?? '';
          for (const l of parts) if (l) out(show(l));
        });
      };
      watchFile(paths.logFile, { interval: LOG_TAIL.followPollMs }, onChange);
      process.once('SIGINT', () => {
        unwatchFile(paths.logFile, onChange);
        resolve();
      });
    });
    return EXIT.ok;
  },
};
