// `larkmux hosts check`: the script sent to the host on ssh's stdin (never on its command line) and the verdicts on its
// answer, each miss with its fix as `doctor` prints them. Pure.
import { CLI_INSTALL, cliInstallFor } from '../../shared/cli-install.js';
import type { BotConfig } from '../../shared/config.js';
import type { HostConfig } from '../../shared/host-config.js';
import type { Translate } from '../../shared/i18n.js';
import { quoteShellArg } from '../../shared/shell-quote.js';
import type { DoctorLine } from '../doctor/types.js';

export const MIN_NODE: readonly [number, number] = [20, 19];
export const MIN_TMUX: readonly [number, number] = [3, 2];
/** Free space in the host user's home below which sessions will fail (FAIL) or soon may (WARN). */
export const DISK_FAIL_KIB = 512 * 1024;
export const DISK_WARN_KIB = 2 * 1024 * 1024;

export interface ProbeProgram {
  label: string;
  program: string;
  install: string;
  /** A bot runs it: missing is a FAIL, else a WARN. */
  used: boolean;
}

/** The CLIs to look for: those the bots run, or (no bot yet) every adapter's program. */
export function probePrograms(bots: readonly Pick<BotConfig, 'name' | 'cli'>[]): ProbeProgram[] {
  const used = bots.filter((b) => b.cli !== 'shell');
  if (!used.length) return (['claude-code', 'codex', 'gemini'] as const).map((id) => ({ label: `cli ${id}`, ...CLI_INSTALL[id], used: false }));
  const seen = new Map<string, ProbeProgram>();
  for (const b of used) {
    const { program, install } = cliInstallFor(b.cli);
    if (!seen.has(program)) seen.set(program, { label: typeof b.cli === 'string' ? `cli ${b.cli}` : `cli ${b.name}`, program, install, used: true });
  }
  return [...seen.values()];
}

/** A POSIX sh script printing `key=value` lines: node, tmux, each program's path, free KiB in $HOME, each dir's presence. */
export function probeScript(programs: readonly ProbeProgram[], dirs: readonly string[]): string {
  const lines = [
    'printf "node=%s\\n" "$(node --version 2>/dev/null)"',
    'printf "tmux=%s\\n" "$(tmux -V 2>/dev/null)"',
    ...programs.map((p, i) => `printf "cli${i}=%s\\n" "$(command -v ${quoteShellArg(p.program)} 2>/dev/null)"`),
    'printf "diskKiB=%s\\n" "$(df -Pk "$HOME" 2>/dev/null | awk \'NR==2{print $4}\')"',
    // A leading ~ is the host user's home: expanded by the host's shell, so the path is not quoted before the slash.
    ...dirs.map((d, i) => `if [ -d ${remotePath(d)} ]; then echo "dir${i}=yes"; else echo "dir${i}=no"; fi`),
    'echo "end=1"',
  ];
  return `${lines.join('\n')}\n`;
}

function remotePath(d: string): string {
  if (d === '~') return '"$HOME"';
  if (d.startsWith('~/')) return `"$HOME"/${quoteShellArg(d.slice(2))}`;
  return quoteShellArg(d);
}

export function parseProbe(stdout: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) m.set(line.slice(0, eq), line.slice(eq + 1).trim());
  }
  return m;
}

/** [major, minor] from `v20.19.1`, `tmux 3.3a`, `tmux next-3.4`; null when there is no version in it. */
export function versionOf(text: string): [number, number] | null {
  const m = /(\d+)\.(\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

function atLeast(v: [number, number], min: readonly [number, number]): boolean {
  return v[0] > min[0] || (v[0] === min[0] && v[1] >= min[1]);
}

function versionLine(label: string, found: string | undefined, min: readonly [number, number], fix: string, t: Translate): DoctorLine {
  const want = `${min[0]}.${min[1]}`;
  if (!found) return { level: 'FAIL', label, detail: t('hosts.probe.notOnPath'), fix };
  const v = versionOf(found);
  if (!v) return { level: 'WARN', label, detail: t('hosts.probe.versionUnknown', { found, want }), fix };
  if (!atLeast(v, min)) return { level: 'FAIL', label, detail: t('hosts.probe.tooOld', { found, want }), fix };
  return { level: 'OK', label, detail: found };
}

/** Every verdict on the probe's answer from host `host`, detail and fix in `t`'s language. */
export function probeVerdicts(host: HostConfig, answer: Map<string, string>, programs: readonly ProbeProgram[], t: Translate): DoctorLine[] {
  const on = t('hosts.probe.on', { name: host.name, ssh: host.ssh });
  const lines: DoctorLine[] = [
    versionLine('node', answer.get('node'), MIN_NODE, t('hosts.probe.nodeFix', { min: MIN_NODE.join('.'), on }), t),
    versionLine('tmux', answer.get('tmux'), MIN_TMUX, t('hosts.probe.tmuxFix', { min: MIN_TMUX.join('.'), on }), t),
  ];
  programs.forEach((p, i) => {
    const path = answer.get(`cli${i}`);
    if (path) lines.push({ level: 'OK', label: p.label, detail: path });
    else lines.push({ level: p.used ? 'FAIL' : 'WARN', label: p.label, detail: t(p.used ? 'doctor.cli.notFoundUsed' : 'doctor.cli.notFound', { program: p.program }), fix: t('hosts.probe.installOn', { on, install: p.install }) });
  });
  const disk = Number(answer.get('diskKiB'));
  if (!answer.get('diskKiB') || !Number.isFinite(disk)) lines.push({ level: 'WARN', label: 'disk', detail: t('hosts.probe.diskUnread') });
  else {
    const gib = t('hosts.probe.diskFree', { gib: (disk / 1024 / 1024).toFixed(1) });
    const fix = t('hosts.probe.diskFix', { on });
    lines.push(disk < DISK_FAIL_KIB ? { level: 'FAIL', label: 'disk', detail: gib, fix } : disk < DISK_WARN_KIB ? { level: 'WARN', label: 'disk', detail: gib, fix } : { level: 'OK', label: 'disk', detail: gib });
  }
  (host.workingDirs ?? []).forEach((d, i) => {
    const label = `workingDirs[${i}]`;
    if (answer.get(`dir${i}`) === 'yes') lines.push({ level: 'OK', label, detail: d });
    else lines.push({ level: 'FAIL', label, detail: t('hosts.probe.dirMissing', { dir: d, on }), fix: t('hosts.probe.dirFix', { command: `ssh${host.port ? ` -p ${host.port}` : ''} ${host.ssh} mkdir -p ${d}` }) });
  });
  return lines;
}
