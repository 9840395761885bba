// The web diff page under a session (/s/<id>/diff, diff.js, diff.css, diff.json): answered by the daemon itself after
// the proxy's grant check (view token or write cookie), never by the worker. The page is the bundle in dist/web/diff.
import type { ServerResponse } from 'node:http';
import { BundledFiles, bundledPageDir, pageHeaders } from '../../platform/bundled-files.js';
import type { DiffPageData } from '../../shared/diff-page.js';
import type { ChangeSet } from '../changes/change-tracker.js';
import { splitPatch } from '../changes/diff-parse.js';

/** URL path → bundled file; nothing outside this table is read from disk. */
const FILES = { '/diff': 'index.html', '/diff.js': 'diff.js', '/diff.css': 'diff.css' };

const HEADERS = pageHeaders("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'", 'no-referrer');

/** The page's data: the change set's files and its patch per file. Pure. */
export function diffPageData(set: ChangeSet | undefined): DiffPageData {
  if (!set) return { at: null, files: [], fileDiffs: [], patchCut: false };
  return { at: set.at, files: set.files, fileDiffs: splitPatch(set.patch), patchCut: set.patchCut };
}

export class DiffPages {
  private readonly files = new BundledFiles(bundledPageDir('diff', 'diff.js'), FILES);

  constructor(private readonly changes: (sessionId: string) => ChangeSet | undefined) {}

  handles(path: string): boolean {
    const p = path.split('?')[0] ?? '';
    return p === '/diff.json' || this.files.has(p);
  }

  /** `cookies` are the proxy's Set-Cookie values (view cookie, page locale) for this answer. */
  async serve(res: ServerResponse, sessionId: string, path: string, method: string | undefined, cookies: string[]): Promise<void> {
    const p = path.split('?')[0] ?? '';
    const headOnly = method === 'HEAD';
    if (method !== 'GET' && !headOnly) {
      res.writeHead(405, { ...HEADERS, 'content-type': 'text/plain; charset=utf-8', allow: 'GET, HEAD' }).end('Method not allowed\n');
      return;
    }
    const found = p === '/diff.json'
      ? { body: Buffer.from(JSON.stringify(diffPageData(this.changes(sessionId)))), type: 'application/json; charset=utf-8' }
      : await this.files.get(p);
    if (!found) {
      res.writeHead(404, { ...HEADERS, 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    res.writeHead(200, { ...HEADERS, 'content-type': found.type, 'content-length': found.body.length, 'set-cookie': cookies });
    res.end(headOnly ? undefined : found.body);
  }
}
