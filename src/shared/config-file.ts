// Reads LARKMUX_HOME/config.json: a missing file is an empty config (no bots), anything else is validated.
import { readFileSync } from 'node:fs';
import { parseConfig, parseConfigText, type ConfigResult } from './config.js';

export type ConfigFileResult = ConfigResult & { exists: boolean };

export function readConfigFile(path: string, env: NodeJS.ProcessEnv = process.env): ConfigFileResult {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ...parseConfig({}, env), exists: false };
    return { ok: false, errors: [`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}; check its permissions`], exists: true };
  }
  return { ...parseConfigText(text, env), exists: true };
}
