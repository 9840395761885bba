// The daemon's and the worker's folders stand as floors (issue 28 item 5): the checker is table-tested, shown failing
// on a fixture that climbs a floor, and the real tree holds no climbing import.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FOLDER_FLOORS, describeViolation, floorViolations, floorViolationsUnder } from '../../scripts/folder-floors.js';

const root = join(import.meta.dirname, '..', '..');

describe('floorViolations', () => {
  const floors = ['ground', 'sessions', 'bots', 'main.ts'];
  const cases: { name: string; graph: Record<string, string[]>; climbs: [string, string][] }[] = [
    { name: 'no edges', graph: { '/r/ground/a.ts': [] }, climbs: [] },
    {
      name: 'a legal graph: every import goes down or stays on its floor',
      graph: {
        '/r/main.ts': ['/r/bots/b.ts', '/r/ground/a.ts'],
        '/r/bots/b.ts': ['/r/sessions/s.ts', '/r/bots/c.ts', '/r/ground/a.ts'],
        '/r/bots/c.ts': [],
        '/r/sessions/s.ts': ['/r/ground/a.ts', '/r/ground/deep/d.ts'],
        '/r/ground/a.ts': ['/r/ground/deep/d.ts', '/shared/x.ts'],
        '/r/ground/deep/d.ts': [],
      },
      climbs: [],
    },
    { name: 'a floor reaching up one', graph: { '/r/ground/a.ts': ['/r/sessions/s.ts'], '/r/sessions/s.ts': [] }, climbs: [['/r/ground/a.ts', '/r/sessions/s.ts']] },
    { name: 'a mutual pair: only the upward edge is wrong', graph: { '/r/bots/b.ts': ['/r/sessions/s.ts'], '/r/sessions/s.ts': ['/r/bots/b.ts'] }, climbs: [['/r/sessions/s.ts', '/r/bots/b.ts']] },
    { name: 'a folder up to the entry file', graph: { '/r/bots/b.ts': ['/r/main.ts'], '/r/main.ts': [] }, climbs: [['/r/bots/b.ts', '/r/main.ts']] },
    { name: 'into a folder the table does not list', graph: { '/r/bots/b.ts': ['/r/extra/e.ts'], '/r/extra/e.ts': [] }, climbs: [['/r/bots/b.ts', '/r/extra/e.ts']] },
    { name: 'out of a folder the table does not list', graph: { '/r/extra/e.ts': ['/r/ground/a.ts'], '/r/ground/a.ts': [] }, climbs: [['/r/extra/e.ts', '/r/ground/a.ts']] },
    { name: 'imports outside the root are free', graph: { '/elsewhere/x.ts': ['/r/main.ts'], '/r/ground/a.ts': ['/elsewhere/x.ts'] }, climbs: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const found = floorViolations(new Map(Object.entries(c.graph)), '/r', floors).map((v) => [v.from, v.to]);
      expect(found).toEqual(c.climbs);
    });
  }

  it('names the importing file, the imported file and both floors', () => {
    const [v] = floorViolations(new Map([['/r/ground/a.ts', ['/r/bots/b.ts']]]), '/r', floors);
    expect(describeViolation(v!, floors)).toBe('/r/ground/a.ts [ground (floor 0)] imports /r/bots/b.ts [bots (floor 2)]');
  });
});

describe('folder floors on disk', () => {
  it('the fixture whose low floor imports its high floor is reported', () => {
    expect(floorViolationsUnder({ 'test/fixtures/folder-floors': ['low', 'high'] }, root)).toEqual([
      { from: 'test/fixtures/folder-floors/low/shape.ts', to: 'test/fixtures/folder-floors/high/owner.ts', fromFloor: 'low', toFloor: 'high' },
    ]);
  });

  it('every folder and top-level file of src/daemon and src/worker has a floor in the table, and none climbs', () => {
    expect(floorViolationsUnder(FOLDER_FLOORS, root)).toEqual([]);
  });
});

describe('the floor table in docs/architecture.md', () => {
  it('lists the same floors in the same order as FOLDER_FLOORS (the one source)', () => {
    const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
    for (const [dir, floors] of Object.entries(FOLDER_FLOORS)) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${dir}\` |`));
      const listed = [...(row ?? '').split('|')[2]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      expect(listed, dir).toEqual(floors);
    }
  });
});
