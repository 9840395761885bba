// One doctor check: a label and a verdict with the fix to apply when it is not OK.
import type { Config } from '../../shared/config.js';
import type { LarkmuxPaths } from '../../platform/paths.js';

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
}

export type DoctorCheck = (ctx: DoctorContext) => Promise<DoctorLine[]> | DoctorLine[];
