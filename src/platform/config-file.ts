// Reads LARKMUX_HOME/config.json: a missing file is an empty config (no bots), anything else is validated, including
// that the folders it names exist (a missing workingDir used to be ignored: the CLI ran in the daemon's folder), and
// every mistake is reported at once, the shape's and the folders' together.
import { readFileSync, statSync } from 'node:fs';
import { parseConfig, parseConfigJson, substituteEnv, type ConfigResult } from '../shared/config.js';
import { looseOwners } from '../shared/config-checks.js';
import { configExposure, literalSecretFields, type ConfigExposure } from '../shared/config-exposure.js';
import { expandHome } from './paths.js';

export type ConfigFileResult = ConfigResult & { exists: boolean };

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A line per configured folder that is not there (each bot's and the console's workingDir and projects), naming the
 * field, the resolved path and the fix. Reads the config loosely, so it also runs when the shape has other errors.
 */
export function folderProblems(config: unknown, env: NodeJS.ProcessEnv = process.env): string[] {
  const owners = looseOwners(substituteEnv(config, env));
  const problems: string[] = [];
  const check = (field: string, raw: unknown) => {
    // A missing ${NAME} is reported by the parser already; a non-string by the shape check.
    if (typeof raw !== 'string' || raw === '' || raw.includes('${')) return;
    const path = expandHome(raw);
    if (!isFolder(path)) problems.push(`${field}: the folder ${path} does not exist; create it (mkdir -p ${path}) or fix the path`);
  };
  for (const { prefix, entry } of owners) {
    check(`${prefix}.workingDir`, entry.workingDir);
    if (Array.isArray(entry.projects)) entry.projects.forEach((p, j) => check(`${prefix}.projects[${j}]`, p));
  }
  return problems;
}

/** Validates config.json's text: JSON syntax first, then every shape, cross-field and folder problem in one list. */
export function checkConfigText(text: string, env: NodeJS.ProcessEnv = process.env): ConfigResult {
  const json = parseConfigJson(text);
  if (!json.ok) return { ok: false, errors: [json.error] };
  const res = parseConfig(json.raw, env);
  const folders = folderProblems(json.raw, env);
  if (!folders.length) return res;
  return { ok: false, errors: [...(res.ok ? [] : res.errors), ...folders] };
}

export function readConfigFile(path: string, env: NodeJS.ProcessEnv = process.env): ConfigFileResult {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ...parseConfig({}, env), exists: false };
    return { ok: false, errors: [`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}; check its permissions`], exists: true };
  }
  return { ...checkConfigText(text, env), exists: true };
}

/** The verdict on who else can read or change config.json (null when there is no file or it cannot be read). */
export function configFileExposure(path: string): ConfigExposure | null {
  try {
    const mode = statSync(path).mode;
    const json = parseConfigJson(readFileSync(path, 'utf8'));
    return configExposure(path, mode, json.ok ? literalSecretFields(json.raw) : []);
  } catch {
    return null;
  }
}
