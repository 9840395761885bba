// Final output without a transcript: the pane lines that appeared after the input.
import { describe, expect, it } from 'vitest';
import { newLinesSince, paneOutputSince } from '../../src/worker/lifecycle/pane-output.js';

describe('pane output', () => {
  const cases: { name: string; before: string; after: string; input: string; out: string }[] = [
    { name: 'one command', before: '$ ', after: '$ echo hi\nhi\n$ ', input: 'echo hi', out: 'hi' },
    { name: 'with earlier history', before: '$ ls\na b\n$ ', after: '$ ls\na b\n$ echo hi\nhi\nthere\n$ ', input: 'echo hi', out: 'hi\nthere' },
    { name: 'same command twice', before: '$ echo hi\nhi\n$ ', after: '$ echo hi\nhi\n$ echo hi\nhi\n$ ', input: 'echo hi', out: 'hi' },
    { name: 'multi-line command', before: '$ ', after: '$ for w in a b\n> do echo $w\n> done\na\nb\n$ ', input: 'for w in a b\ndo echo $w\ndone', out: 'a\nb' },
    { name: 'no output', before: '$ ', after: '$ true\n$ ', input: 'true', out: '' },
  ];
  it.each(cases)('$name', ({ before, after, input, out }) => expect(paneOutputSince('shell', before, after, input)).toBe(out));

  it('custom CLIs get every new line; scrolled-off history anchors on the tail', () => {
    expect(newLinesSince('x\ny\n> ', 'x\ny\n> go\nresult\n> ')).toEqual(['> go', 'result', '>']);
    const long = Array.from({ length: 30 }, (_, i) => `l${i}`);
    expect(newLinesSince([...long, '> '].join('\n'), [...long.slice(25), '> go', 'r', '> '].join('\n'))).toEqual(['> go', 'r', '>']);
  });
});
