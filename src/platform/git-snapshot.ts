// What a turn changed in a git working tree: the tree is snapshotted at turn start and end through a private index
// (tracked and untracked files, .gitignore honoured; the user's index, HEAD, stash and branches are never touched),
// and the two trees are diffed. Blobs land in the repository's object store like `git stash create` would put them.
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';

export const GIT_LIMITS = {
  /** A snapshot of a large tree takes a while; past this the turn goes on without a change card. */
  timeoutMs: 20_000,
  /** The full diff kept for the page; past it the page says it is cut. */
  patchBytes: 4 * 1024 * 1024,
} as const;

type GitOut = { ok: true; out: string } | { ok: false; message: string; tooBig?: boolean };

function git(cwd: string, args: string[], env: Record<string, string> = {}, maxBuffer = 1024 * 1024): Promise<GitOut> {
  // Only what git needs: no secret of the daemon's environment goes to it, and no pager or prompt can start.
  const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/', LANG: 'C.UTF-8', GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_PAGER: 'cat' };
  return new Promise((resolve) => {
    execFile('git', ['-c', 'core.quotepath=off', '-C', cwd, ...args], { env: { ...base, ...env }, timeout: GIT_LIMITS.timeoutMs, maxBuffer, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (!err) return resolve({ ok: true, out: stdout });
      const tooBig = /maxBuffer/i.test(String((err as Error).message));
      resolve({ ok: false, message: (stderr || (err as Error).message).trim().slice(0, 300), ...(tooBig ? { tooBig: true } : {}) });
    });
  });
}

/** The repository's top folder, or null when `cwd` is not in a git working tree (or git is missing). */
export async function workTreeRoot(cwd: string): Promise<string | null> {
  const r = await git(cwd, ['rev-parse', '--show-toplevel']);
  return r.ok ? r.out.trim() || null : null;
}

/**
 * The file `name` of the repository `cwd` is a work tree of (`info/exclude`: the shared one of a linked worktree, whose
 * `.git` is a file), as git itself resolves it; null outside a work tree or without git.
 */
export async function gitPathOf(cwd: string, name: string): Promise<string | null> {
  const r = await git(cwd, ['rev-parse', '--is-inside-work-tree', '--git-path', name]);
  if (!r.ok) return null;
  const [inside, path] = r.out.split('\n');
  if (inside !== 'true' || !path) return null;
  return isAbsolute(path) ? path : join(cwd, path);
}

/**
 * The copy keeps the index's times: git trusts an entry's stat data only when the file is older than the index file,
 * and re-reads the rest ("racily clean"). A copy stamped now would make a same-size edit in the index's second look
 * unchanged.
 */
async function copyIndex(from: string, to: string): Promise<void> {
  await copyFile(from, to);
  const st = await stat(from);
  await utimes(to, st.atime, st.mtime);
}

/** A tree id holding the working tree as it is now; null when it cannot be taken. */
export async function snapshotTree(top: string): Promise<string | null> {
  const dir = await mkdtemp(join(tmpdir(), 'lmx-snap-'));
  try {
    const index = join(dir, 'index');
    // Starting from a copy of the real index lets `add` reuse its stat cache (fast on big trees); none is fine too.
    const gitIndex = await gitPathOf(top, 'index');
    if (gitIndex) await copyIndex(gitIndex, index).catch(() => undefined);
    const env = { GIT_INDEX_FILE: index };
    const added = await git(top, ['add', '-A', '--', '.'], env);
    if (!added.ok) return null;
    const tree = await git(top, ['write-tree'], env);
    return tree.ok ? tree.out.trim() || null : null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The work tree `cwd` is in and a snapshot of it (tree null: it could not be taken); null outside a work tree. */
export async function snapshotAt(cwd: string): Promise<{ top: string; tree: string | null } | null> {
  const top = await workTreeRoot(cwd);
  return top ? { top, tree: await snapshotTree(top) } : null;
}

export interface TreeDiff {
  numstat: string;
  patch: string;
  /** The patch was longer than GIT_LIMITS.patchBytes and is cut. */
  patchCut: boolean;
}

export async function diffTrees(top: string, from: string, to: string): Promise<TreeDiff | null> {
  const numstat = await git(top, ['diff', '--no-renames', '--numstat', '-z', from, to], {}, 8 * 1024 * 1024);
  if (!numstat.ok) return null;
  const patch = await git(top, ['diff', '--no-renames', '--no-color', '--no-ext-diff', '--no-textconv', from, to], {}, GIT_LIMITS.patchBytes);
  if (patch.ok) return { numstat: numstat.out, patch: patch.out, patchCut: false };
  return { numstat: numstat.out, patch: '', patchCut: true };
}
