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

const nodeCheck: DoctorCheck = () => {
  const v = process.versions.node.split('.').map(Number);
  const ok = atLeast(v, MIN_VERSIONS.node);
  return [{ level: ok ? 'OK' : 'FAIL', label: 'node', detail: `v${process.versions.node}`, fix: ok ? undefined : `install Node.js ${MIN_VERSIONS.node.join('.')} or newer` }];
};

const tmuxCheck: DoctorCheck = async ({ env }) => {
  const path = which('tmux', env);
  if (!path) {
    return [{ level: 'WARN', label: 'tmux', detail: 'not found: sessions run under a plain pty and will not survive a restart', fix: 'apt-get install tmux (or your system’s package manager)' }];
  }
  try {
    const { stdout } = await run(path, ['-V'], { timeout: 5000 });
    const m = /(\d+)\.(\d+)/.exec(stdout);
    const v = m ? [Number(m[1]), Number(m[2])] : [0, 0];
    const ok = atLeast(v, MIN_VERSIONS.tmux);
    return [{ level: ok ? 'OK' : 'FAIL', label: 'tmux', detail: `${stdout.trim()} (${path})`, fix: ok ? undefined : `tmux ${MIN_VERSIONS.tmux.join('.')} or newer is needed` }];
  } catch (err) {
    return [{ level: 'FAIL', label: 'tmux', detail: `${path} did not run: ${(err as Error).message}`, fix: 'reinstall tmux' }];
  }
};

const configCheck: DoctorCheck = ({ paths, env }) => {
  const res = readConfigFile(paths.config, env);
  if (!res.ok) return res.errors.map((e) => ({ level: 'FAIL' as const, label: 'config', detail: e, fix: `edit ${paths.config}` }));
  if (!res.exists) return [{ level: 'WARN', label: 'config', detail: `no ${paths.config} yet`, fix: `run \`${larkmuxCommand(env)} setup\` to connect a bot` }];
  if (res.config.bots.length === 0) return [{ level: 'WARN', label: 'config', detail: 'valid, but no bot is configured', fix: `add a bot (${larkmuxCommand(env)} setup)` }];
  return [{ level: 'OK', label: 'config', detail: `valid, ${res.config.bots.length} bot(s): ${res.config.bots.map((b) => b.name).join(', ')}` }];
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

const cliCheck: DoctorCheck = ({ env, config }) => {
  const used = new Set((config?.bots ?? []).map((b) => (typeof b.cli === 'string' ? b.cli : 'custom')));
  return CLI_PROGRAMS.map(({ id, program, install }): DoctorLine => {
    const path = which(program, env);
    if (path) return { level: 'OK', label: `cli ${id}`, detail: path };
    return { level: used.has(id) ? 'FAIL' : 'WARN', label: `cli ${id}`, detail: `${program} not found on PATH${used.has(id) ? ' (a bot uses it)' : ''}`, fix: install };
  }).concat((config?.bots ?? []).flatMap((b): DoctorLine[] => {
    if (typeof b.cli !== 'object') return [];
    const { program, install } = cliInstallFor(b.cli);
    const path = which(program, env) ?? (program.includes('/') && existsSync(program) ? program : null);
    return [path ? { level: 'OK', label: `cli ${b.name}`, detail: path } : { level: 'FAIL', label: `cli ${b.name}`, detail: `${program} not found on PATH (bot ${b.name} runs it)`, fix: install }];
  }));
};

const homeCheck: DoctorCheck = ({ paths }) => {
  if (!existsSync(paths.home)) return [{ level: 'OK', label: 'home', detail: `${paths.home} (created on first start)` }];
  const mode = statSync(paths.home).mode & 0o777;
  const open = (mode & 0o077) !== 0;
  return [{ level: open ? 'WARN' : 'OK', label: 'home', detail: `${paths.home} (mode ${mode.toString(8)})`, fix: open ? `chmod 700 ${paths.home} (it holds tokens and logs)` : undefined }];
};

const platformCheck: DoctorCheck = () => {
  if (process.platform === 'linux') return [{ level: 'OK', label: 'platform', detail: 'linux' }];
  // Nothing reads /proc, but only Linux is tested: FIFOs and tmux work on macOS/BSD, the font search paths are Debian's.
  return [{ level: 'WARN', label: 'platform', detail: `${process.platform} is untested (larkmux is developed and tested on Linux)`, fix: 'put the fonts in $LARKMUX_HOME/fonts (larkmux fonts install) if screenshots show boxes' }];
};

export const DOCTOR_CHECKS: DoctorCheck[] = [nodeCheck, tmuxCheck, configCheck, configModeCheck, talkScopeCheck, cliCheck, homeCheck, webCheck, platformCheck, fontsCheck, sessionsCheck, hostsCheck];
