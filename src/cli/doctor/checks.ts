// The doctor's checks, in the order they are printed: runtime, tmux, config, CLIs, home folder, platform.
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { promisify } from 'node:util';
import { CLI_INSTALL, cliInstallFor } from '../../shared/cli-install.js';
import { larkmuxCommand } from '../../platform/larkmux-command.js';
import { configFileExposure, readConfigFile } from '../../platform/config-file.js';
import type { DoctorCheck, DoctorLine } from './types.js';
import { sessionsCheck } from './sessions-check.js';
import { which } from '../../platform/which.js';
import { fontsCheck } from './fonts-check.js';
import { hostsCheck } from './hosts-check.js';
import { talkScopeCheck } from './talk-scope-check.js';
import { webCheck } from './web-check.js';

const run = promisify(execFile);

/** Oldest versions known to work: Node for the pinned dependencies, tmux for pipe-pane -O and control mode flags. */
export const MIN_VERSIONS = { node: [20, 19], tmux: [3, 2] } as const;

function atLeast(v: number[], min: readonly number[]): boolean {
  for (let i = 0; i < min.length; i++) {
    const a = v[i] ?? 0;
    const b = min[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

const nodeCheck: DoctorCheck = ({ t }) => {
  const v = process.versions.node.split('.').map(Number);
  const ok = atLeast(v, MIN_VERSIONS.node);
  return [{ level: ok ? 'OK' : 'FAIL', label: 'node', detail: `v${process.versions.node}`, fix: ok ? undefined : t('doctor.node.fix', { min: MIN_VERSIONS.node.join('.') }) }];
};

const tmuxCheck: DoctorCheck = async ({ env, t }) => {
  const path = which('tmux', env);
  if (!path) {
    return [{ level: 'WARN', label: 'tmux', detail: t('doctor.tmux.missing'), fix: t('doctor.tmux.missingFix') }];
  }
  try {
    const { stdout } = await run(path, ['-V'], { timeout: 5000 });
    const m = /(\d+)\.(\d+)/.exec(stdout);
    const v = m ? [Number(m[1]), Number(m[2])] : [0, 0];
    const ok = atLeast(v, MIN_VERSIONS.tmux);
    return [{ level: ok ? 'OK' : 'FAIL', label: 'tmux', detail: `${stdout.trim()} (${path})`, fix: ok ? undefined : t('doctor.tmux.tooOld', { min: MIN_VERSIONS.tmux.join('.') }) }];
  } catch (err) {
    return [{ level: 'FAIL', label: 'tmux', detail: t('doctor.tmux.didNotRun', { path, message: (err as Error).message }), fix: t('doctor.tmux.reinstall') }];
  }
};

const configCheck: DoctorCheck = ({ paths, env, t }) => {
  const res = readConfigFile(paths.config, env);
  // zod's findings stay as config-file.ts words them (English, naming the field); the fix around them is translated.
  if (!res.ok) return res.errors.map((e) => ({ level: 'FAIL' as const, label: 'config', detail: e, fix: t('doctor.config.edit', { path: paths.config }) }));
  if (!res.exists) return [{ level: 'WARN', label: 'config', detail: t('doctor.config.missing', { path: paths.config }), fix: t('doctor.config.missingFix', { cmd: larkmuxCommand(env) }) }];
  if (res.config.bots.length === 0) return [{ level: 'WARN', label: 'config', detail: t('doctor.config.noBot'), fix: t('doctor.config.noBotFix', { cmd: larkmuxCommand(env) }) }];
  return [{ level: 'OK', label: 'config', detail: t('doctor.config.valid', { count: res.config.bots.length, names: res.config.bots.map((b) => b.name).join(', ') }) }];
};

/** Who else can read config.json (when it holds written-out secrets) or change it (issue 31 item 10). */
const configModeCheck: DoctorCheck = ({ paths }) => {
  const verdict = configFileExposure(paths.config);
  if (!verdict) return [];
  if (verdict.ok) return [{ level: 'OK', label: 'config mode', detail: verdict.detail }];
  return [{ level: 'WARN', label: 'config mode', detail: verdict.problem, fix: verdict.fix }];
};

/** The coding CLIs doctor checks: every adapter with a program to install (the shell comes with the system). */
export const CLI_PROGRAMS = (['claude-code', 'codex', 'gemini'] as const).map((id) => ({ id, ...CLI_INSTALL[id] }));

const cliCheck: DoctorCheck = ({ env, config, t }) => {
  const used = new Set((config?.bots ?? []).map((b) => (typeof b.cli === 'string' ? b.cli : 'custom')));
  return CLI_PROGRAMS.map(({ id, program, install }): DoctorLine => {
    const path = which(program, env);
    if (path) return { level: 'OK', label: `cli ${id}`, detail: path };
    return { level: used.has(id) ? 'FAIL' : 'WARN', label: `cli ${id}`, detail: t(used.has(id) ? 'doctor.cli.notFoundUsed' : 'doctor.cli.notFound', { program }), fix: install };
  }).concat((config?.bots ?? []).flatMap((b): DoctorLine[] => {
    if (typeof b.cli !== 'object') return [];
    const { program } = cliInstallFor(b.cli);
    const path = which(program, env) ?? (program.includes('/') && existsSync(program) ? program : null);
    return [path ? { level: 'OK', label: `cli ${b.name}`, detail: path } : { level: 'FAIL', label: `cli ${b.name}`, detail: t('doctor.cli.notFoundBot', { program, bot: b.name }), fix: t('doctor.cli.customInstall', { command: program }) }];
  }));
};

const homeCheck: DoctorCheck = ({ paths, t }) => {
  if (!existsSync(paths.home)) return [{ level: 'OK', label: 'home', detail: t('doctor.home.notYet', { path: paths.home }) }];
  const mode = statSync(paths.home).mode & 0o777;
  const open = (mode & 0o077) !== 0;
  return [{ level: open ? 'WARN' : 'OK', label: 'home', detail: t('doctor.home.mode', { path: paths.home, mode: mode.toString(8) }), fix: open ? t('doctor.home.fix', { path: paths.home }) : undefined }];
};

const platformCheck: DoctorCheck = ({ t }) => {
  if (process.platform === 'linux') return [{ level: 'OK', label: 'platform', detail: 'linux' }];
  // Nothing reads /proc, but only Linux is tested: FIFOs and tmux work on macOS/BSD, the font search paths are Debian's.
  return [{ level: 'WARN', label: 'platform', detail: t('doctor.platform.untested', { platform: process.platform }), fix: t('doctor.platform.fix') }];
};

export const DOCTOR_CHECKS: DoctorCheck[] = [nodeCheck, tmuxCheck, configCheck, configModeCheck, talkScopeCheck, cliCheck, homeCheck, webCheck, platformCheck, fontsCheck, sessionsCheck, hostsCheck];
