import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args.js';
import type { FlagSpec } from '../../src/cli/types.js';

const specs: FlagSpec[] = [
  { name: 'json', description: '' },
  { name: 'follow', short: 'f', description: '' },
  { name: 'lines', short: 'n', value: 'N', description: '' },
];

describe('larkmux argument parsing', () => {
  it.each([
    [['--json'], { ok: true, args: [], flags: { json: true } }],
    [['-f', '-n', '20'], { ok: true, args: [], flags: { follow: true, lines: '20' } }],
    [['--lines=5', 'x'], { ok: true, args: ['x'], flags: { lines: '5' } }],
    [['--', '--json'], { ok: true, args: ['--json'], flags: {} }],
    [['--nope'], { ok: false, error: 'unknown flag --nope' }],
    [['-z'], { ok: false, error: 'unknown flag -z' }],
    [['--lines'], { ok: false, error: '--lines needs a value (N)' }],
    [['--json=1'], { ok: false, error: '--json takes no value' }],
  ] as const)('%j', (argv, expected) => {
    expect(parseArgs(argv, specs)).toEqual(expected);
  });
});
