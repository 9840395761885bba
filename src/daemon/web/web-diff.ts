// The web diff page under a session (/s/<id>/diff, diff.js, diff.css, diff.json): answered by the daemon itself after
// the proxy's grant check (view token or write cookie), never by the worker. The page is the bundle in dist/web/diff.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DiffPageData } from '../../shared/diff-page.js';
import type { ChangeSet } from '../changes/change-tracker.js';
import { splitPatch } from '../changes/diff-parse.js';

const FILES: Record<string, { file: string; type: string }> = {
  '/diff': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/diff.js': { file: 'diff.js', type: 'text/javascript; charset=utf-8' },
  '/diff.css': { file: 'diff.css', type: 'text/css; charset=utf-8' },
};

const HEADERS = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
} as const;

/** dist/web/diff next to the built daemon, or the repo's dist when running from source. */
function staticDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, '..', '..', 'web', 'diff'), join(here, '..', '..', '..', 'dist', 'web', 'diff')];
  return candidates.find((c) => existsSync(join(c, 'diff.js'))) ?? candidates[0]!;
}

/** The page's data: the change set's files and its patch per file. Pure. */
export function diffPageData(set: ChangeSet | undefined): DiffPageData {
  if (!set) return { at: null, files: [], fileDiffs: [], patchCut: false };
  return { at: set.at, files: set.files, fileDiffs: splitPatch(set.patch), patchCut: set.patchCut };
}

export class DiffPages {
  private readonly dir = staticDir();

  constructor(private readonly changes: (sessionId: string) => ChangeSet | undefined) {}

  handles(path: string): boolean {
    const p = path.split('?')[0] ?? '';
    return p === '/diff.json' || Object.hasOwn(FILES, p);
  }

  /** `cookies` are the proxy's Set-Cookie values (view cookie, page locale) for this answer. */
  async serve(res: ServerResponse, sessionId: string, path: string, method: string | undefined, cookies: string[]): Promise<void> {
    const p = path.split('?')[0] ?? '';
    const headOnly = method === 'HEAD';
    if (method !== 'GET' && !headOnly) {
      res.writeHead(405, { ...HEADERS, 'content-type': 'text/plain; charset=utf-8', allow: 'GET, HEAD' }).end('Method not allowed\n');
      return;
    }
    let body: Buffer | undefined;
    let type: string;
    if (p === '/diff.json') {
      body = Buffer.from(JSON.stringify(diffPageData(this.changes(sessionId))));
      type = 'application/json; charset=utf-8';
    } else {
      const entry = FILES[p]!;
      body = await readFile(join(this.dir, entry.file)).catch(() => undefined);
      type = entry.type;
    }
    if (!body) {
      res.writeHead(404, { ...HEADERS, 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    res.writeHead(200, { ...HEADERS, 'content-type': type, 'content-length': body.length, 'set-cookie': cookies });
    res.end(headOnly ? undefined : body);
  }
}
