// The project list for /repo and directory checks for /cd: the only commands code that touches the file system.
import { homedir } from 'node:os';
import { readdir, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, resolve } from 'node:path';

export const PROJECT_SCAN = {
  /** A picker card with more buttons than this is unusable on a phone; the rest are reachable with /cd. */
  maxProjects: 40,
} as const;

export interface Project {
  label: string;
  path: string;
}

/** `~`, `~/x`, absolute, or relative to `base`. Pure. */
export function resolveDir(input: string, base: string, home: string = homedir()): string {
  const p = input.trim();
  if (p === '~') return home;
  if (p.startsWith('~/')) return join(home, p.slice(2));
  return isAbsolute(p) ? resolve(p) : resolve(base, p);
}

export async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isDirectory(), () => false);
}

async function isGitRepo(dir: string): Promise<boolean> {
  // `.git` is a folder in a clone and a file in a worktree or submodule.
  return stat(join(dir, '.git')).then(() => true, () => false);
}

/** Configured projects first (as given), then git repositories directly under workingDir, without duplicates. */
export async function listProjects(workingDir: string, configured: readonly string[], home: string = homedir()): Promise<Project[]> {
  const out: Project[] = [];
  const seen = new Set<string>();
  const add = (path: string) => {
    if (seen.has(path) || out.length >= PROJECT_SCAN.maxProjects) return;
    seen.add(path);
    out.push({ label: basename(path) || path, path });
  };
  for (const p of configured) {
    const abs = resolveDir(p, workingDir, home);
    if (await isDirectory(abs)) add(abs);
  }
  const root = resolveDir(workingDir, home, home);
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  const dirs = entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => join(root, e.name)).sort();
  for (const d of dirs) if (await isGitRepo(d)) add(d);
  return out;
}
