// The bench contract on stdout (scripts/bench-stdout.mjs): only the last line, when it is one JSON object, is the result;
// every other line goes aside (stderr) as it arrives.
import { describe, expect, it } from 'vitest';
import { ResultLineFilter } from '../../scripts/bench-stdout.mjs';

function run(chunks: string[]): { aside: string[]; result: ReturnType<ResultLineFilter['finish']> } {
  const aside: string[] = [];
  const f = new ResultLineFilter((l) => aside.push(l));
  for (const c of chunks) f.push(c);
  return { aside, result: f.finish() };
}

describe('ResultLineFilter', () => {
  it.each([
    { name: 'one JSON line', chunks: ['{"a":1}\n'], aside: [], result: { ok: true, line: '{"a":1}' } },
    { name: 'split across chunks, no final newline', chunks: ['{"a":', '1}'], aside: [], result: { ok: true, line: '{"a":1}' } },
    { name: 'stray lines first', chunks: ['building…\n', 'tmux: ok\n{"a":1}\n\n'], aside: ['building…', 'tmux: ok'], result: { ok: true, line: '{"a":1}' } },
    { name: 'an earlier JSON line is not the result', chunks: ['{"probe":1}\n{"a":2}\n'], aside: ['{"probe":1}'], result: { ok: true, line: '{"a":2}' } },
    { name: 'text after the JSON', chunks: ['{"a":1}\ndone\n'], aside: ['{"a":1}', 'done'], result: { ok: false, error: "the benchmark's last stdout line is not a JSON object" } },
    { name: 'a JSON array is not an object', chunks: ['[1,2]\n'], aside: ['[1,2]'], result: { ok: false, error: "the benchmark's last stdout line is not a JSON object" } },
    { name: 'nothing', chunks: [], aside: [], result: { ok: false, error: 'the benchmark printed nothing on stdout' } },
  ])('$name', ({ chunks, aside, result }) => {
    expect(run(chunks)).toEqual({ aside, result });
  });
});
