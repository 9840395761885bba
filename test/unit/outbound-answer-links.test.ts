// Which local files a final answer links, and the working-directory fence.
import { describe, expect, it } from 'vitest';
import { localLinkTargets } from '../../src/daemon/outbound/answer-links.js';
import { insideRoots, judgeFilePath } from '../../src/platform/file-access.js';

describe('localLinkTargets', () => {
  it.each([
    ['![chart](./out/chart.png)', ['./out/chart.png']],
    ['see [the report](report.md "title") and ![x](/abs/p.png)', ['report.md', '/abs/p.png']],
    ['[site](https://example.com/a.png) [mail](mailto:a@b.c) [top](#intro) [proto](//cdn/x.png)', []],
    ['[spaced](<my file.pdf>) and [enc](my%20doc.pdf)', ['my file.pdf', 'my doc.pdf']],
    ['[f](file:///tmp/x.txt) [q](a.txt?raw=1#L3) [dup](a.txt)', ['/tmp/x.txt', 'a.txt']],
    ['plain ./out.png text, `[code](x)` is still a link', ['x']],
    ['[bad](%E0%A4%A)', ['%E0%A4%A']],
  ])('%s', (md, expected) => {
    expect(localLinkTargets(md)).toEqual(expected);
  });
});

describe('insideRoots', () => {
  it.each([
    ['/w/a.png', ['/w'], true],
    ['/w/sub/b.md', ['/w'], true],
    ['/w', ['/w'], false],
    ['/wx/a.png', ['/w'], false],
    ['/etc/passwd', ['/w'], false],
    ['/other/x', ['/w', '/other'], true],
    ['/w/..x/y', ['/w'], true],
  ])('%s in %j', (target, roots, expected) => {
    expect(insideRoots(target, roots)).toBe(expected);
  });
});

describe('judgeFilePath (answer links and `larkmux send`; paths already resolved, so a symlink is judged by its target)', () => {
  const access = { roots: ['/w', '/srv/shared'], home: '/w/.larkmux' };
  it.each([
    ['/w/report.md', { ok: true }],
    ['/w/sub/deep/a.png', { ok: true }],
    ['/srv/shared/x.pdf', { ok: true }],
    // a link /w/link-to-shadow → /etc/shadow arrives resolved
    ['/etc/shadow', { ok: false, reason: 'outside' }],
    ['/wx/sibling-with-prefix.txt', { ok: false, reason: 'outside' }],
    ['/w', { ok: false, reason: 'outside' }],
    ['/srv/other/y.txt', { ok: false, reason: 'outside' }],
    ['/w/.larkmux/config.json', { ok: false, reason: 'private' }],
    ['/w/.larkmux/sessions-cli_a1.json', { ok: false, reason: 'private' }],
    ['/w/.larkmux/known_hosts', { ok: false, reason: 'private' }],
    ['/w/.larkmux/logs/larkmux.log', { ok: false, reason: 'private' }],
    ['/w/.larkmux/run/control.sock', { ok: false, reason: 'private' }],
    ['/w/.larkmux/report.md', { ok: true }],
    ['/w/.larkmux/sub/config.json', { ok: true }],
    ['/w/.larkmuxy/config.json', { ok: true }],
  ])('%s', (target, expected) => {
    expect(judgeFilePath(target, access)).toEqual(expected);
  });

  it('no roots (none exists) allows nothing; no home keeps nothing private', () => {
    expect(judgeFilePath('/w/a.txt', { roots: [], home: null })).toEqual({ ok: false, reason: 'outside' });
    expect(judgeFilePath('/w/config.json', { roots: ['/w'], home: null })).toEqual({ ok: true });
  });
});
