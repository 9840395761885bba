// Serves the bundled page (dist/web) from a fixed list of files, read once and kept in memory.
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';

/** URL path → file in staticDir and its type. Nothing outside this table is ever read from disk. */
const FILES: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/index.html': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/main.js': { file: 'main.js', type: 'text/javascript; charset=utf-8' },
  '/main.js.map': { file: 'main.js.map', type: 'application/json' },
  '/main.css': { file: 'main.css', type: 'text/css; charset=utf-8' },
  '/main.css.map': { file: 'main.css.map', type: 'application/json' },
  '/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
};

/**
 * Same-origin only; xterm's DOM renderer writes inline styles (hence 'unsafe-inline' for styles, not for scripts);
 * no framing, no referrer (URLs may carry the view token).
 */
export const PAGE_HEADERS = {
  'content-security-policy': "default-src 'self'; connect-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
} as const;

export class StaticFiles {
  private readonly cache = new Map<string, Buffer>();

  constructor(private readonly dir: string, private readonly prefix = '') {}

  has(path: string): boolean {
    return Object.hasOwn(FILES, path);
  }

  /** Writes the file for `path` (or a 404) to `res`. */
  async serve(path: string, res: ServerResponse, headOnly: boolean): Promise<void> {
    const entry = Object.hasOwn(FILES, path) ? FILES[path] : undefined;
    const body = entry ? await this.load(entry.file) : null;
    if (!entry || !body) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...PAGE_HEADERS }).end('Not found\n');
      return;
    }
    res.writeHead(200, { 'content-type': entry.type, 'content-length': body.length, ...PAGE_HEADERS });
    res.end(headOnly ? undefined : body);
  }

  private async load(file: string): Promise<Buffer | null> {
    const cached = this.cache.get(file);
    if (cached) return cached;
    try {
      const body = await readFile(join(this.dir, this.prefix + file));
      this.cache.set(file, body);
      return body;
    } catch {
      return null;
    }
  }
}
