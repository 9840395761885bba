// Which local files a final answer links, and the working-directory fence.
import { describe, expect, it } from 'vitest';
import { insideRoots, localLinkTargets } from '../../src/daemon/outbound/answer-links.js';

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
