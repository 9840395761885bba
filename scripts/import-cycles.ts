// Import cycles among our own TypeScript modules, type-only imports included (issue 11).
// `npx tsx scripts/import-cycles.ts [dir…]` prints each cycle and exits 1 if there is one; `npm run lint` runs it on src/.
// Why not eslint-plugin-import-x's no-cycle: it skips `import type` edges, so the bot-runtime ↔ bot-command-context
// cycle the issue names passed it, and it took ~14 s of CPU against well under one here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Module → the modules it imports (absolute paths of .ts files). */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** Every .ts file under `dir` (no .d.ts), recursively. */
export function tsFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    // node_modules and hidden folders (test/.clis holds the test CLIs' packages) are not ours.
    if (name === 'node_modules' || name.startsWith('.')) continue;
    if (statSync(path).isDirectory()) out.push(...tsFilesUnder(path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out.sort();
}

/** The relative imports and re-exports of one file (`import`, `import type`, `export … from`, `import()`), resolved to .ts files. */
export function relativeImports(file: string, text: string): string[] {
  const info = ts.preProcessFile(text, true, true);
  const out: string[] = [];
  for (const { fileName } of info.importedFiles) {
    if (!fileName.startsWith('.')) continue;
    // Sources import `./x.js` (NodeNext); the file on disk is ./x.ts.
    out.push(resolve(dirname(file), fileName.replace(/\.js$/, '.ts')));
  }
  return out;
}

/** The import graph of `files`; edges to files outside the set (packages, generated code) are left out. */
export function importGraph(files: readonly string[]): ImportGraph {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const deps = relativeImports(file, readFileSync(file, 'utf8')).filter((d) => known.has(d));
    graph.set(file, [...new Set(deps)]);
  }
  return graph;
}

/**
 * Every strongly connected group of two or more modules (or one that imports itself), each sorted: Tarjan's
 * algorithm, iterative so a deep graph cannot overflow the stack.
 */
export function findImportCycles(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; next: number }[] = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const deps = graph.get(frame.node) ?? [];
      if (frame.next < deps.length) {
        const dep = deps[frame.next++]!;
        if (!index.has(dep)) {
          index.set(dep, counter);
          low.set(dep, counter++);
          stack.push(dep);
          onStack.add(dep);
          work.push({ node: dep, next: 0 });
        } else if (onStack.has(dep)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(dep)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== frame.node);
      const selfImport = (graph.get(frame.node) ?? []).includes(frame.node);
      if (group.length > 1 || selfImport) cycles.push(group.sort());
    }
  }
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The cycles among the .ts files under `dirs`, as paths relative to `base`. */
export function importCyclesUnder(dirs: readonly string[], base: string): string[][] {
  const files = dirs.flatMap((d) => tsFilesUnder(resolve(base, d)));
  return findImportCycles(importGraph(files)).map((group) => group.map((f) => relative(base, f)));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const base = process.cwd();
  const dirs = process.argv.slice(2);
  const cycles = importCyclesUnder(dirs.length > 0 ? dirs : ['src'], base);
  for (const group of cycles) console.error(`import cycle among ${group.length} modules:\n  ${group.join('\n  ')}`);
  if (cycles.length > 0) {
    console.error(`${cycles.length} import cycle(s): break each with an interface the importer owns (see docs/architecture.md).`);
    process.exit(1);
  }
  console.log('no import cycles');
}
