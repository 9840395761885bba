import { describe, expect, it } from 'vitest';
import { firstHunk, parseNumstatZ, splitPatch, summarizeChanges } from '../../src/daemon/changes/diff-parse.js';

const PATCH = [
  'diff --git a/src/a.ts b/src/a.ts',
  'index 1111111..2222222 100644',
  '--- a/src/a.ts',
  '+++ b/src/a.ts',
  '@@ -1,3 +1,4 @@',
  ' one',
  '-two',
  '+TWO',
  '+2.5',
  ' three',
  '@@ -10,2 +11,2 @@',
  '-ten',
  '+TEN',
  'diff --git a/docs/名字 <at>.md b/docs/名字 <at>.md',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/docs/名字 <at>.md',
  '@@ -0,0 +1 @@',
  '+hello',
  'diff --git a/gone.txt b/gone.txt',
  'deleted file mode 100644',
  '--- a/gone.txt',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-bye',
  '',
].join('\n');

describe('change parsing', () => {
  it('numstat -z: counts per file, binary as null, names with spaces, tabs and CJK kept whole', () => {
    expect(parseNumstatZ('2\t1\tsrc/a.ts\x001\t0\tdocs/名字 <at>.md\x00-\t-\timg.png\x000\t1\tgone.txt\x00')).toEqual([
      { path: 'src/a.ts', added: 2, deleted: 1 },
      { path: 'docs/名字 <at>.md', added: 1, deleted: 0 },
      { path: 'img.png', added: null, deleted: null },
      { path: 'gone.txt', added: 0, deleted: 1 },
    ]);
    expect(parseNumstatZ('')).toEqual([]);
  });

  it('a patch splits into files by their new path (the old one for a deletion)', () => {
    expect(splitPatch(PATCH).map((p) => p.path)).toEqual(['src/a.ts', 'docs/名字 <at>.md', 'gone.txt']);
    expect(splitPatch(PATCH).map((p) => p.text).join('')).toBe(PATCH);
  });

  it('header paths: a trailing tab (names with spaces) is dropped, C-quoted names (quotes, backslashes, octal UTF-8) decoded', () => {
    const diff = [
      'diff --git a/with space.txt b/with space.txt', '--- a/with space.txt\t', '+++ b/with space.txt\t', '@@ -1 +1 @@', '-a', '+b',
      'diff --git "a/q\\"\\\\\\344\\270\\255.txt" "b/q\\"\\\\\\344\\270\\255.txt"', '--- "a/q\\"\\\\\\344\\270\\255.txt"', '+++ "b/q\\"\\\\\\344\\270\\255.txt"', '@@ -1 +1 @@', '-a', '+b', '',
    ].join('\n');
    expect(splitPatch(diff).map((p) => p.path)).toEqual(['with space.txt', 'q"\\中.txt']);
  });

  const hunkCases: { name: string; diff: string; lines?: number; want: string | undefined }[] = [
    { name: 'the first hunk only', diff: splitPatch(PATCH)[0]!.text, want: '@@ -1,3 +1,4 @@\n one\n-two\n+TWO\n+2.5\n three' },
    { name: 'cut to a line budget, marked', diff: splitPatch(PATCH)[0]!.text, lines: 2, want: '@@ -1,3 +1,4 @@\n one\n…' },
    { name: 'no hunk (a mode change)', diff: 'diff --git a/x b/x\nold mode 100644\nnew mode 100755\n', want: undefined },
  ];
  for (const c of hunkCases) it(`firstHunk: ${c.name}`, () => expect(firstHunk(c.diff, c.lines)).toBe(c.want));

  it('the summary shows the first hunk of the file with the most changed lines', () => {
    const files = parseNumstatZ('3\t2\tsrc/a.ts\x001\t0\tdocs/名字 <at>.md\x000\t1\tgone.txt\x00');
    const s = summarizeChanges(files, PATCH);
    expect(s.hunk?.path).toBe('src/a.ts');
    expect(s.hunk?.text.startsWith('@@ -1,3 +1,4 @@')).toBe(true);
    expect(s.moreFiles).toBe(0);
  });

  it('many files: the card lists the first ones and counts the rest', () => {
    const files = Array.from({ length: 40 }, (_, i) => ({ path: `f${i}`, added: 1, deleted: 0 }));
    const s = summarizeChanges(files, '');
    expect(s.files).toHaveLength(15);
    expect(s.moreFiles).toBe(25);
    expect(s.hunk).toBeUndefined();
  });
});
