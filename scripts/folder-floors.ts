// The folders of the daemon and the worker stand as floors (issue 28 item 5): this table is the one place their order
// is written down, lowest floor first. A module may import its own floor and the floors below it, never one above.
// `npx tsx scripts/folder-floors.ts` prints each import that climbs and exits 1 if there is one; `npm run lint` runs it.
// A floor is the first path segment under its root: a folder, or a file that sits directly in the root (`main.ts`).
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importGraph, tsFilesUnder, type ImportGraph } from './import-cycles.js';

/** Root (relative to the repository) → its floors, lowest first. */
export const FOLDER_FLOORS: Readonly<Record<string, readonly string[]>> = {
  'src/daemon': [
    /** What everything shares: session records and their files, anchors, grants, pairing codes, mentionable ids. */
    'ground',
    /** Git snapshots and diffs of a session's folder. */
    'changes',
    /** The forked workers and their typed handle. */
    'workers',
    /** The web terminal: grants, the proxy, the pages. */
    'web',
    /** The IM adapters (Lark, the local console). */
    'im',
    /** What goes back to the chat: answers, files, links. */
    'outbound',
    /** tmux panes the daemon finds, adopts and locates. */
    'panes',
    /** The session owner: live sessions, cards, capacity, attention, stores. */
    'sessions',
    /** Schedules: their store, the one timer, a due prompt handed to the session owner. */
    'schedules',
    /** The command table and each command. */
    'commands',
    /** From a chat event to a routed message: the router, attachments, dedupe. */
    'inbound',
    /** One configured bot at run time. */
    'bots',
    /** The daemon process: start, control socket, restore. */
    'process',
    'main.ts',
  ],
  'src/worker': ['transcript', 'cli', 'lifecycle', 'backend', 'render', 'webterm', 'webterm.ts', 'channel.ts', 'runtime', 'main.ts', 'host'],
};

/** An import from a lower floor to a higher one, or from or to a place the table does not list. */
export interface FloorViolation {
  from: string;
  to: string;
  fromFloor: string;
  toFloor: string;
}

/** The floor of `file` under `root` (the first path segment), or undefined when the file is not under `root`. */
export function floorOf(root: string, file: string): string | undefined {
  const rel = relative(root, file);
  if (rel === '' || rel.startsWith('..') || rel.startsWith(sep)) return undefined;
  return rel.split(sep)[0];
}

/**
 * Every import in `graph` between two floors of `root` that does not go down the table: upward, sideways into a floor
 * the table does not list, or out of one. Imports within a floor and to files outside `root` are free.
 */
export function floorViolations(graph: ImportGraph, root: string, floors: readonly string[]): FloorViolation[] {
  const rank = new Map(floors.map((f, i) => [f, i]));
  const out: FloorViolation[] = [];
  for (const [from, deps] of graph) {
    const fromFloor = floorOf(root, from);
    if (fromFloor === undefined) continue;
    for (const to of deps) {
      const toFloor = floorOf(root, to);
      if (toFloor === undefined || toFloor === fromFloor) continue;
      const a = rank.get(fromFloor);
      const b = rank.get(toFloor);
      if (a === undefined || b === undefined || b > a) out.push({ from, to, fromFloor, toFloor });
    }
  }
  return out.sort((x, y) => x.from.localeCompare(y.from) || x.to.localeCompare(y.to));
}

/** The violations of every root in `table`, with paths relative to `base`. */
export function floorViolationsUnder(table: Readonly<Record<string, readonly string[]>>, base: string): FloorViolation[] {
  return Object.entries(table).flatMap(([dir, floors]) => {
    const root = resolve(base, dir);
    return floorViolations(importGraph(tsFilesUnder(root)), root, floors).map((v) => ({ ...v, from: relative(base, v.from), to: relative(base, v.to) }));
  });
}

export function describeViolation(v: FloorViolation, floors: readonly string[]): string {
  const name = (f: string) => (floors.includes(f) ? `${f} (floor ${floors.indexOf(f)})` : `${f} (not in the table)`);
  return `${v.from} [${name(v.fromFloor)}] imports ${v.to} [${name(v.toFloor)}]`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const base = process.cwd();
  let count = 0;
  for (const [dir, floors] of Object.entries(FOLDER_FLOORS)) {
    const violations = floorViolationsUnder({ [dir]: floors }, base);
    for (const v of violations) console.error(`floor climbed: ${describeViolation(v, floors)}`);
    count += violations.length;
  }
  if (count > 0) {
    console.error(`${count} import(s) climb a floor: move the shared thing down, or hand the upper thing in as a callback (scripts/folder-floors.ts).`);
    process.exit(1);
  }
  console.log(`folder floors hold in ${Object.keys(FOLDER_FLOORS).join(', ')}`);
}
