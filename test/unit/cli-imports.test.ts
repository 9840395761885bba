// `larkmux` (and `larkmux start` above all) loads nothing of the daemon's runtime: before issue 11, start imported
// daemon/daemon.ts to print one line, which loaded the Feishu SDK and the worker pool into every CLI call.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/** What loading `entry` loads: its static value imports, transitively (`import type` and dynamic import() left out). */
function loadedBy(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const stack = [resolve(root, entry)];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false);
    for (const st of source.statements) {
      if (!(ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) || !st.moduleSpecifier || !ts.isStringLiteral(st.moduleSpecifier)) continue;
      if (ts.isImportDeclaration(st) ? st.importClause?.isTypeOnly : st.isTypeOnly) continue;
      const spec = st.moduleSpecifier.text;
      if (spec.startsWith('.')) stack.push(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else if (!spec.startsWith('node:')) packages.add(spec);
    }
  }
  return { files: [...files].map((f) => relative(root, f)).sort(), packages: [...packages].sort() };
}

describe('what the larkmux command loads', () => {
  it('start loads no daemon module', () => {
    expect(loadedBy('src/cli/commands/start.ts').files.filter((f) => f.startsWith('src/daemon/'))).toEqual([]);
  });

  it('the whole command loads no package but zod and no daemon module (no SDK, no worker pool)', () => {
    const loaded = loadedBy('src/cli/main.ts');
    expect(loaded.packages).toEqual(['zod']);
    // tmux session listing is in src/platform, the pane proof in src/shared: the CLI reaches the daemon by socket only.
    expect(loaded.files.filter((f) => f.startsWith('src/daemon/'))).toEqual([]);
  });
});
