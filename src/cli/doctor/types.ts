// One doctor check: a label and a verdict with the fix to apply when it is not OK.
import type { Config } from '../../shared/config.js';
import type { LarkmuxPaths } from '../../platform/paths.js';
import type { Translate } from '../../shared/i18n.js';

export type Level = 'OK' | 'WARN' | 'FAIL';

export interface DoctorLine {
  level: Level;
  label: string;
  detail: string;
  fix?: string;
}

export interface DoctorContext {
  paths: LarkmuxPaths;
  env: NodeJS.ProcessEnv;
  /** The valid config, or null when config.json does not validate (its own check reports why). */
  config: Config | null;
  /** Detail and fix texts: the terminal's locale, or English for `--json` (machine-readable output is never translated). */
  t: Translate;
}

export type DoctorCheck = (ctx: DoctorContext) => Promise<DoctorLine[]> | DoctorLine[];
