// Chat uploads stay out of the person's commits: when a session's folder is a git work tree, `.larkmux/` is added to
// the repository's own exclude file (never to a tracked .gitignore), once, so `git add -A` does not pick them up.
import { constants } from 'node:fs';
import { mkdir, open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { gitPathOf } from '../../platform/git-snapshot.js';

/** Matches a folder named `.larkmux` at any depth (the session's folder may be below the repository's top). */
export const EXCLUDE_LINE = '.larkmux/';

/** Pure: the exclude file's text with the line added, or null when a line already excludes `.larkmux`. */
export function withUploadsExcluded(current: string): string | null {
  const present = current.split(/\r?\n/).some((l) => ['.larkmux', '.larkmux/', '/.larkmux', '/.larkmux/'].includes(l.trim()));
  if (present) return null;
  const sep = current === '' || current.endsWith('\n') ? '' : '\n';
  return `${current}${sep}# chat uploads (larkmux)\n${EXCLUDE_LINE}\n`;
}

export type ExcludeOutcome = 'added' | 'present' | 'not-a-repo';

/** Adds `.larkmux/` to the exclude file of the repository `cwd` is in; appended, never through a link. */
export async function excludeUploads(cwd: string): Promise<ExcludeOutcome> {
  const file = await gitPathOf(cwd, 'info/exclude');
  if (!file) return 'not-a-repo';
  const current = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return '';
    throw e;
  });
  const next = withUploadsExcluded(current);
  if (next === null) return 'present';
  await mkdir(dirname(file), { recursive: true });
  const fh = await open(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o644);
  try {
    await fh.write(next.slice(current.length));
  } finally {
    await fh.close();
  }
  return 'added';
}

const done = new Map<string, Promise<ExcludeOutcome>>();

/** excludeUploads once per folder for the daemon's life (a failure is retried next time). */
export function excludeUploadsOnce(cwd: string): Promise<ExcludeOutcome> {
  let p = done.get(cwd);
  if (!p) {
    p = excludeUploads(cwd);
    p.catch(() => done.delete(cwd));
    done.set(cwd, p);
  }
  return p;
}
