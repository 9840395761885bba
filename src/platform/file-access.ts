// Pure: whether a file may be sent (an answer's links, `larkmux send` here and in a host's pane alike): inside the
// allowed roots and not one of larkmux's own files. Below daemon and worker because a host's agent judges by it too.
import { isAbsolute, relative, sep } from 'node:path';

/** True when `target` (already absolute and with symlinks resolved) lies inside one of `roots` (also resolved). */
export function insideRoots(target: string, roots: readonly string[]): boolean {
  return roots.some((root) => {
    const rel = relative(root, target);
    return rel === '' ? false : !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
  });
}

/** Where files may be sent from: the session's folder and the bot's `answerFileRoots`, and larkmux's home to keep out. */
export interface FileAccess {
  roots: readonly string[];
  /** LARKMUX_HOME: its own files hold the app secrets (config.json), view tokens (the stores) and logs. */
  home: string | null;
}

/** Top-level files and folders of LARKMUX_HOME that are larkmux's own, never a user's (see platform/paths.ts). */
const PRIVATE_HOME_FOLDERS = ['run', 'logs'] as const;
const PRIVATE_HOME_FILE = /^(?:[^/]+\.json|known_hosts)$/;

/** True for larkmux's own files inside its home (`home` resolved like `target`); a user's file there is not one. */
export function isLarkmuxPrivate(target: string, home: string | null): boolean {
  if (home === null) return false;
  const rel = relative(home, target);
  if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..' || isAbsolute(rel)) return false;
  const [first] = rel.split(sep);
  return (PRIVATE_HOME_FOLDERS as readonly string[]).includes(first!) || PRIVATE_HOME_FILE.test(rel);
}

export type PathVerdict = { ok: true } | { ok: false; reason: 'outside' | 'private' };

/**
 * Whether the file at `target` may be sent. Everything is already resolved (realpath): a symlink inside a root that
 * points outside arrives here as its outside target and is refused; one that points inside is fine.
 */
export function judgeFilePath(target: string, access: FileAccess): PathVerdict {
  if (!insideRoots(target, access.roots)) return { ok: false, reason: 'outside' };
  if (isLarkmuxPrivate(target, access.home)) return { ok: false, reason: 'private' };
  return { ok: true };
}
