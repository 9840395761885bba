// The browser pages' bundles (dist/web/<page>, built by scripts/build-web.mjs) as the daemon serves them: where they
// are, which files of them may be read, and the headers every such page carries.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Content type by extension, for the only kinds of file a page bundle holds. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
};

/** What every page larkmux serves says besides its own CSP and referrer policy: never sniffed, never cached. */
export function pageHeaders(csp: string, referrer: 'no-referrer' | 'same-origin'): Record<string, string> {
  return { 'content-security-policy': csp, 'referrer-policy': referrer, 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' };
}

/**
 * dist/web/<page> beside the built daemon (tsc keeps src's layout, so dist/platform/../web), or the repo's dist when
 * running from source; the first that has `marker`, a file only a build writes. Not for the worker, whose esbuild
 * bundle lives elsewhere (worker/runtime/web.ts finds its own).
 */
export function bundledPageDir(page: string, marker: string): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, '..', 'web', page), join(here, '..', '..', 'dist', 'web', page)];
  return candidates.find((c) => existsSync(join(c, marker))) ?? candidates[0]!;
}

/** A page's files by URL path, read once and kept; nothing outside `paths` (URL path → file name) is read from disk. */
export class BundledFiles {
  private readonly cache = new Map<string, Buffer>();

  constructor(private readonly dir: string, private readonly paths: Readonly<Record<string, string>>) {}

  has(path: string): boolean {
    return Object.hasOwn(this.paths, path);
  }

  /** The file for `path` and its content type; undefined for a path not in the table or a file that is missing. */
  async get(path: string): Promise<{ body: Buffer; type: string } | undefined> {
    const file = this.has(path) ? this.paths[path] : undefined;
    if (!file) return undefined;
    let body = this.cache.get(file);
    if (!body) {
      body = await readFile(join(this.dir, file)).catch(() => undefined);
      if (!body) return undefined;
      this.cache.set(file, body);
    }
    return { body, type: TYPES[extname(file)] ?? 'application/octet-stream' };
  }
}
