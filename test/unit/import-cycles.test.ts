// No import cycle among our modules, type-only imports included (issue 11); the checker itself is table-tested and
// shown failing on a deliberately cyclic pair (test/fixtures/import-cycle).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findImportCycles, importCyclesUnder, relativeImports } from '../../scripts/import-cycles.js';

const root = join(import.meta.dirname, '..', '..');

describe('findImportCycles', () => {
  const cases: { name: string; graph: Record<string, string[]>; cycles: string[][] }[] = [
    { name: 'no edges', graph: { a: [], b: [] }, cycles: [] },
    { name: 'a chain', graph: { a: ['b'], b: ['c'], c: [] }, cycles: [] },
    { name: 'a diamond', graph: { a: ['b', 'c'], b: ['d'], c: ['d'], d: [] }, cycles: [] },
    { name: 'a pair', graph: { a: ['b'], b: ['a'] }, cycles: [['a', 'b']] },
    { name: 'a self import', graph: { a: ['a'], b: ['a'] }, cycles: [['a']] },
    { name: 'a loop of four through a tail', graph: { x: ['a'], a: ['b'], b: ['c'], c: ['d'], d: ['a', 'e'], e: [] }, cycles: [['a', 'b', 'c', 'd']] },
    { name: 'two separate loops', graph: { a: ['b'], b: ['a', 'c'], c: ['d'], d: ['c'] }, cycles: [['a', 'b'], ['c', 'd']] },
    { name: 'an edge to an unknown module', graph: { a: ['zod'] }, cycles: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(findImportCycles(new Map(Object.entries(c.graph)))).toEqual(c.cycles);
    });
  }

  it('a 5000-module chain closing on itself (no stack overflow)', () => {
    const graph = new Map(Array.from({ length: 5000 }, (_, i) => [`m${i}`, [`m${(i + 1) % 5000}`]]));
    const cycles = findImportCycles(graph);
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toHaveLength(5000);
  });
});

describe('relativeImports', () => {
  it('reads every relative import form and maps .js to .ts; packages and node: are not ours', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "export { c } from './c.js';",
      "export type { D } from './d.js';",
      "import { z } from 'zod';",
      "import { readFileSync } from 'node:fs';",
      "const e = await import('./e.js');",
      "const notImport = 'import x from \"./f.js\"';",
    ].join('\n');
    expect(relativeImports('/src/x/m.ts', text)).toEqual(['/src/x/a.ts', '/src/b.ts', '/src/x/c.ts', '/src/x/d.ts', '/src/x/e.ts']);
  });
});

describe('import cycles on disk', () => {
  it('the deliberately cyclic fixture pair is reported (a type-only edge back counts)', () => {
    expect(importCyclesUnder(['test/fixtures/import-cycle'], root)).toEqual([
      ['test/fixtures/import-cycle/card.ts', 'test/fixtures/import-cycle/session.ts'],
    ]);
  });

  it('src, test (fixtures aside), bench and scripts have none', () => {
    const cycles = importCyclesUnder(['src', 'test', 'bench', 'scripts'], root).filter((g) => !g.every((f) => f.startsWith('test/fixtures/import-cycle/')));
    expect(cycles).toEqual([]);
  });
});
