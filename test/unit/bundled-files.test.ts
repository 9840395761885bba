import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BundledFiles, pageHeaders } from '../../src/platform/bundled-files.js';

const dir = mkdtempSync(join(tmpdir(), 'lmx-bundled-'));
for (const f of ['index.html', 'page.js', 'page.js.map', 'page.css']) writeFileSync(join(dir, f), `<${f}>`);
writeFileSync(join(dir, 'secret.txt'), 'not in the table');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('BundledFiles: a page bundle served from its table only', () => {
  const files = new BundledFiles(dir, { '/p': 'index.html', '/p/page.js': 'page.js', '/p/page.js.map': 'page.js.map', '/p/page.css': 'page.css', '/p/gone.js': 'gone.js' });
  it.each([
    { path: '/p', type: 'text/html; charset=utf-8', body: '<index.html>' },
    { path: '/p/page.js', type: 'text/javascript; charset=utf-8', body: '<page.js>' },
    { path: '/p/page.js.map', type: 'application/json', body: '<page.js.map>' },
    { path: '/p/page.css', type: 'text/css; charset=utf-8', body: '<page.css>' },
    { path: '/p/gone.js', type: null, body: null },
    { path: '/p/secret.txt', type: null, body: null },
    { path: '/p/../secret.txt', type: null, body: null },
    { path: 'constructor', type: null, body: null },
    { path: '__proto__', type: null, body: null },
  ])('$path → $type', async ({ path, type, body }) => {
    const got = await files.get(path);
    expect(got ? { type: got.type, body: got.body.toString() } : null).toEqual(type === null ? null : { type, body });
    expect(files.has(path)).toBe(['/p', '/p/page.js', '/p/page.js.map', '/p/page.css', '/p/gone.js'].includes(path));
  });
});

describe('pageHeaders', () => {
  it.each(['no-referrer', 'same-origin'] as const)('%s: the CSP and referrer given, never sniffed, never cached', (referrer) => {
    expect(pageHeaders("default-src 'none'", referrer)).toEqual({
      'content-security-policy': "default-src 'none'", 'referrer-policy': referrer, 'x-content-type-options': 'nosniff', 'cache-control': 'no-store',
    });
  });
});
