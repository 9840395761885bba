// Writes an adapter's seed files (onboarding skipped): JSON deep-merged, TOML tables appended once, never clobbering.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SeedFile } from './types.js';

export type SeedResult = { ok: true; written: string[] } | { ok: false; code: 'seed_failed'; message: string };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep merge: objects merge key by key, everything else from `patch` wins. */
export function deepMerge(base: unknown, patch: unknown): unknown {
  if (!isObject(base) || !isObject(patch)) return patch;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) out[k] = deepMerge(base[k], v);
  return out;
}

export async function applySeedFiles(files: readonly SeedFile[]): Promise<SeedResult> {
  const written: string[] = [];
  for (const f of files) {
    try {
      await mkdir(dirname(f.path), { recursive: true });
      const existing = await readFile(f.path, 'utf8').catch(() => null);
      let content = f.content;
      if (f.mode === 'merge-json' && existing !== null) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(existing);
        } catch {
          return { ok: false, code: 'seed_failed', message: `${f.path} is not valid JSON; fix or remove it` };
        }
        content = JSON.stringify(deepMerge(parsed, JSON.parse(f.content)), null, 2);
      } else if (f.mode === 'append-unless-present' && existing !== null) {
        if (f.marker && existing.includes(f.marker)) continue;
        content = existing + (existing.endsWith('\n') ? '' : '\n') + f.content;
      }
      await writeFile(f.path, content);
      written.push(f.path);
    } catch (e) {
      return { ok: false, code: 'seed_failed', message: `${f.path}: ${(e as Error).message}` };
    }
  }
  return { ok: true, written };
}
