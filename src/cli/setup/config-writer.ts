// Merges one bot into config.json (other bots and settings kept) and writes the file atomically with mode 0600.
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseConfig } from '../../shared/config.js';

/** The fields `larkmux setup` asks for; everything else in an existing entry is kept. */
export interface SetupBot {
  name: string;
  appId: string;
  /** A literal secret or a `${ENV}` reference. */
  appSecret: string;
  domain: string;
  cli: string;
  workingDir: string;
}

export type RawConfig = Record<string, unknown> & { bots?: unknown };

export type ReadRaw = { ok: true; raw: RawConfig; exists: boolean } | { ok: false; message: string };

/** Reads config.json as plain JSON (not validated: a half-written config is still merged, never thrown away). */
export function readRawConfig(path: string): ReadRaw {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, raw: {}, exists: false };
    return { ok: false, message: `cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? 'error'}; check its permissions` };
  }
  if (!text.trim()) return { ok: true, raw: {}, exists: true };
  try {
    const raw = JSON.parse(text) as unknown;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, message: `${path} is not a JSON object; fix or move it, then run setup again` };
    return { ok: true, raw: raw as RawConfig, exists: true };
  } catch {
    return { ok: false, message: `${path} is not valid JSON; fix or move it, then run setup again (it was not changed)` };
  }
}

export type MergeResult = { ok: true; raw: RawConfig; replaced: boolean } | { ok: false; message: string };

/**
 * Puts `bot` into the config: an entry with the same app id is updated in place (its other fields kept);
 * otherwise it is appended. A different app under the same name is a conflict, not an overwrite.
 */
export function mergeBot(raw: RawConfig, bot: SetupBot): MergeResult {
  const bots = Array.isArray(raw.bots) ? (raw.bots as unknown[]) : [];
  if (raw.bots !== undefined && !Array.isArray(raw.bots)) return { ok: false, message: '"bots" in config.json is not a list; fix it by hand first' };
  const entries = bots.map((b) => (b && typeof b === 'object' ? (b as Record<string, unknown>) : {}));
  const sameApp = entries.findIndex((b) => b.appId === bot.appId);
  const sameName = entries.findIndex((b) => b.name === bot.name);
  if (sameName >= 0 && sameName !== sameApp) {
    return { ok: false, message: `a bot named "${bot.name}" already exists for another app (${String(entries[sameName]!.appId)}); choose another name with --name` };
  }
  const fields = { name: bot.name, appId: bot.appId, appSecret: bot.appSecret, domain: bot.domain, cli: bot.cli, workingDir: bot.workingDir };
  const next = [...bots];
  if (sameApp >= 0) next[sameApp] = { ...entries[sameApp], ...fields };
  else next.push(fields);
  return { ok: true, raw: { ...raw, bots: next }, replaced: sameApp >= 0 };
}

/** Validates the merged config as the daemon will; `${NAME}` references that are unset still count as valid here. */
export function validateMerged(raw: RawConfig, env: NodeJS.ProcessEnv): string[] {
  const names = JSON.stringify(raw).match(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g) ?? [];
  const filled: NodeJS.ProcessEnv = { ...env };
  for (const ref of names) {
    const name = ref.slice(2, -1);
    if (filled[name] === undefined) filled[name] = 'set-at-start';
  }
  const res = parseConfig(raw, filled);
  return res.ok ? [] : res.errors;
}

/** Writes the file through a temp file + rename so a crash never leaves half a config; owner-only (0600). */
export function writeConfigFile(path: string, raw: RawConfig): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.setup-${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(raw, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}
