// Pure: which local files a final answer links (Markdown images and links), and whether a local file may be sent
// (an answer's links and `larkmux send` alike).
import { isAbsolute, relative, resolve, sep } from 'node:path';

export const ANSWER_FILE_LIMITS = {
  /** An answer that links more files than this sends the first ones only: a listing is not a request to upload. */
  maxFilesPerAnswer: 10,
} as const;

/** `[text](target)` or `![alt](target "title")`, with `<…>` around targets that hold spaces. */
const MARKDOWN_LINK = /!?\[[^\]\n]*\]\(\s*(<[^>\n]+>|[^)\s]+)(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** The local paths an answer links, in order, without duplicates (URLs, anchors and mail links are not files). */
export function localLinkTargets(markdown: string): string[] {
  const out: string[] = [];
  for (const m of markdown.matchAll(MARKDOWN_LINK)) {
    let target = m[1]!;
    if (target.startsWith('<')) target = target.slice(1, -1);
    if (target.startsWith('file://')) target = target.slice('file://'.length);
    else if (SCHEME.test(target) || target.startsWith('#') || target.startsWith('//')) continue;
    target = target.replace(/[?#].*$/, '');
    try {
      target = decodeURIComponent(target);
    } catch {
      /* keep it as written */
    }
    if (target && !out.includes(target)) out.push(target);
  }
  return out;
}

/** True when `target` (already absolute and with symlinks resolved) lies inside one of `roots` (also resolved). */
export function insideRoots(target: string, roots: readonly string[]): boolean {
  return roots.some((root) => {
    const rel = relative(root, target);
    return rel === '' ? false : !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
  });
}

/** A linked path as an absolute path: relative ones are relative to the session's working directory. */
export function resolveLinked(cwd: string, target: string): string {
  return resolve(cwd, target);
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
