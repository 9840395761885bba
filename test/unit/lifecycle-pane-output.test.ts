// Final output without a transcript: the pane lines that appeared after the input.
import { describe, expect, it } from 'vitest';
import { newLinesSince, paneOutputSince, paneShowsTurnEnd, paneTookTurn } from '../../src/worker/lifecycle/pane-output.js';

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

describe('a shell turn is proven by its echo (issue 14: a slow paste read as silence)', () => {
  const long = `echo ${'x'.repeat(300)} | wc -c`;
  const wrapped = `$ ${long.slice(0, 118)}\n${long.slice(118, 236)}\n${long.slice(236)}\n301\n$ `;
  // A heredoc taller than the capture (2 000 lines): its head scrolled out, only its end can be on screen.
  const tallBody = Array.from({ length: 60 }, (_, i) => `row ${i}`);
  const tall = ['cat > f <<EOF', ...tallBody, 'EOF'].join('\n');
  const tallShown = [...tallBody.slice(30).map((l) => `> ${l}`), '> EOF'];
  const cases: { name: string; after: string; input: string; took: boolean; out?: string }[] = [
    { name: 'a command taller than the capture, taken: its end anchors it', after: [...tallShown, '$ '].join('\n'), input: tall, took: true, out: '' },
    { name: 'a paste taller than the screen: readline shows its head, a window, and its end as a remnant', after: ['$ cat > f <<EOF', 'row 58', 'EOFw 59', '$ '].join('\n'), input: tall, took: true },
    { name: 'a paste taller than the screen, Enter not read yet', after: ['$ cat > f <<EOF', 'row 58', 'row 59'].join('\n'), input: tall, took: false },
    { name: 'a command taller than the capture, still arriving', after: tallShown.slice(0, -1).join('\n'), input: tall, took: false },
    { name: 'bare prompt: the paste has not landed', after: '$ ', input: 'echo hi', took: false },
    { name: 'echo still arriving', after: '$ ech', input: 'echo hi', took: false },
    { name: 'echoed, Enter not read yet', after: '$ echo hi', input: 'echo hi', took: false },
    { name: 'echoed and answered', after: '$ echo hi\nhi\n$ ', input: 'echo hi', took: true, out: 'hi' },
    { name: 'no output, prompt back', after: '$ true\n$ ', input: 'true', took: true, out: '' },
    { name: 'multi-line paste stopped at a continuation prompt', after: '$ for w in a b\n> ', input: 'for w in a b\ndo echo $w\ndone', took: false },
    { name: 'multi-line paste complete', after: '$ for w in a b\n> do echo $w\n> done\na\nb\n$ ', input: 'for w in a b\ndo echo $w\ndone', took: true, out: 'a\nb' },
    { name: 'long command over wrapped rows', after: wrapped, input: long, took: true, out: '301' },
    { name: 'long command half echoed', after: `$ ${long.slice(0, 118)}\n${long.slice(118, 200)}`, input: long, took: false },
    { name: 'a tab shows as spaces', after: '$ echo "i       done" | od -c\n0000000 i\n$ ', input: 'echo "i\tdone" | od -c', took: true, out: '0000000 i' },
  ];
  it.each(cases)('$name', ({ after, input, took, out }) => {
    expect(paneTookTurn('shell', '$ ', after, input)).toBe(took);
    if (out !== undefined) expect(paneOutputSince('shell', '$ ', after, input)).toBe(out);
  });

  it('a tall heredoc after another one with the same terminator: the earlier screen scrolled out, the end still proves it', () => {
    const before = ['$ cat > a <<EOF', '> one', '> EOF', '$ '].join('\n');
    const after = [...tallShown, '$ '].join('\n');
    expect(newLinesSince(before, after)).toEqual(['$']);
    expect(paneTookTurn('shell', before, after, tall)).toBe(true);
    expect(paneTookTurn('shell', before, tallShown.join('\n'), tall.replace(/EOF$/, 'EOX'))).toBe(false);
  });

  describe('output longer than the capture scrolled the command out', () => {
    const before = ['$ echo ready', 'ready', '$ ls', 'a.txt  b.txt', '$ '].join('\n');
    const numbers = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
    it.each<[string, string, string, boolean]>([
      ['seq 1 5000: only its numbers and the prompt are left', [...numbers(3000, 5000), '$ '].join('\n'), 'seq 1 5000', true],
      ['the paste has not landed: the old screen is still there', before, 'seq 1 5000', false],
      ['the old screen scrolled away by a paste still arriving: its lines are on screen', [...numbers(1, 40).map((n) => `> row ${n}`), '> '].join('\n'), ['cat > f <<EOF', ...numbers(1, 80).map((n) => `row ${n}`), 'EOF'].join('\n'), false],
      ['the old screen is still there above new output: the echo must prove it', [...before.split('\n').slice(0, -1), '$ seq 1 3', '1', '2', '3', '$ '].join('\n'), 'seq 1 4', false],
    ])('%s', (_name, after, input, took) => {
      expect(paneTookTurn('shell', before, after, input)).toBe(took);
    });
    it('a fresh shell (nothing above the prompt): a capture far longer than an on-screen answer needs is the evidence', () => {
      expect(paneTookTurn('shell', '$ ', [...numbers(3000, 5000), '$ '].join('\n'), 'seq 1 5000')).toBe(true);
      expect(paneTookTurn('shell', '$ ', [...numbers(1, 30), '$ '].join('\n'), 'seq 1 5000')).toBe(false);
      expect(paneTookTurn('shell', '$ ', '$ ', 'seq 1 5000')).toBe(false);
    });
  });

  it('other CLIs have no echo to prove: the delivery stands', () => {
    expect(paneTookTurn('custom', '> ', '> ', 'go')).toBe(true);
  });
});

describe('a shell back at its prompt ends the turn without waiting for silence', () => {
  const P = 'bash-5.2$';
  const cases: { name: string; screen: string; input: string; ended: boolean }[] = [
    { name: 'output, then the same prompt', screen: `${P} echo hi\nhi\n${P} `, input: 'echo hi', ended: true },
    { name: 'no output, the prompt at once', screen: `${P} true\n${P} `, input: 'true', ended: true },
    { name: 'earlier turns above', screen: `${P} ls\na b\n${P} echo hi\nhi\n${P} `, input: 'echo hi', ended: true },
    { name: 'a multi-line command', screen: `${P} for w in a b\n> do echo $w\n> done\na\nb\n${P} `, input: 'for w in a b\ndo echo $w\ndone', ended: true },
    { name: 'a long command over wrapped rows', screen: `${P} echo ${'x'.repeat(100)}\n${'x'.repeat(200)} | wc -c\n301\n${P} `, input: `echo ${'x'.repeat(300)} | wc -c`, ended: true },
    { name: 'Enter read, nothing printed yet', screen: `${P} sleep 5; echo hi`, input: 'sleep 5; echo hi', ended: false },
    { name: 'output so far, the command still running', screen: `${P} make\ncc -c a.c`, input: 'make', ended: false },
    { name: 'output that ends like a prompt (a progress bar at 45%)', screen: `${P} curl -O x\n 45%`, input: 'curl -O x', ended: false },
    { name: 'a different prompt (the command changed directory): silence decides', screen: 'u@h:~$ cd /tmp\nu@h:/tmp$ ', input: 'cd /tmp', ended: false },
    { name: 'the same command earlier, this one not echoed yet', screen: `${P} echo hi\nhi\n${P} ech`, input: 'echo hi', ended: false },
    { name: 'the same command again, answered', screen: `${P} echo hi\nhi\n${P} echo hi\nhi\n${P} `, input: 'echo hi', ended: true },
    { name: 'the echo scrolled off the screen', screen: ['out 1', 'out 2', `${P} `].join('\n'), input: 'seq 100', ended: false },
    { name: 'a bare prompt: the paste has not landed', screen: `${P} `, input: 'echo hi', ended: false },
  ];
  it.each(cases)('$name', ({ screen, input, ended }) => expect(paneShowsTurnEnd('shell', screen, input)).toBe(ended));

  it('other CLIs: the screen never proves an end (silence or a transcript does)', () => {
    expect(paneShowsTurnEnd('custom', `${P} go\nok\n${P} `, 'go')).toBe(false);
  });
});
