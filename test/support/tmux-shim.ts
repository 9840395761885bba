// Test helper: a `tmux` on PATH that logs every invocation to a file and runs the real tmux, to count a worker's execs.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { tempDir } from './worker-session.js';

export interface TmuxShim {
  /** Put first on the worker's PATH. */
  binDir: string;
  /** Every logged invocation (its arguments), oldest first. */
  calls(): string[];
  remove(): void;
}

export function makeTmuxShim(): TmuxShim {
  const real = execFileSync('sh', ['-c', 'command -v tmux'], { encoding: 'utf8' }).trim();
  const dir = tempDir('lmx-tmux-shim-');
  const log = join(dir.dir, 'calls.log');
  writeFileSync(log, '');
  const script = `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`;
  writeFileSync(join(dir.dir, 'tmux'), script);
  chmodSync(join(dir.dir, 'tmux'), 0o755);
  return {
    binDir: dir.dir,
    calls: () => readFileSync(log, 'utf8').split('\n').filter((l) => l !== ''),
    remove: dir.remove,
  };
}
