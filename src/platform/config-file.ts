// Reads LARKMUX_HOME/config.json: a missing file is an empty config (no bots), anything else is validated, including
// that the folders it names exist (a missing workingDir used to be ignored: the CLI ran in the daemon's folder).
import { readFileSync, statSync } from 'node:fs';
import { parseConfig, parseConfigText, type Config, type ConfigResult } from '../shared/config.js';
import { expandHome } from './paths.js';

export type ConfigFileResult = ConfigResult & { exists: boolean };

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** A line per configured folder that is not there, naming the field, the resolved path and the fix. */
export function folderProblems(config: Config): string[] {
  const problems: string[] = [];
  config.bots.forEach((b, i) => {
    const check = (field: string, raw: string) => {
      const path = expandHome(raw);
      if (!isFolder(path)) problems.push(`bots[${i}].${field}: the folder ${path} does not exist; create it (mkdir -p ${path}) or fix the path`);
    };
    check('workingDir', b.workingDir);
    b.projects.forEach((p, j) => check(`projects[${j}]`, p));
  });
  return problems;
}

function withFolders(res: ConfigResult): ConfigResult {
  if (!res.ok) return res;
  const problems = folderProblems(res.config);
  return problems.length ? { ok: false, errors: problems } : res;
}

export function readConfigFile(path: string, env: NodeJS.ProcessEnv = process.env): ConfigFileResult {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ...parseConfig({}, env), exists: false };
    return { ok: false, errors: [`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}; check its permissions`], exists: true };
  }
  return { ...withFolders(parseConfigText(text, env)), exists: true };
}
