// `larkmux hosts check NAME`: over SSH, node, tmux, the bots' CLIs, free disk and the working dirs, each miss with its fix.
import { sshFailureFix } from '../../platform/ssh/ssh-failure.js';
import { runOverSsh, sshPlaces } from '../../platform/ssh/ssh-run.js';
import { translator } from '../../shared/i18n.js';
import { formatDoctorLine } from '../doctor/format.js';
import type { DoctorLine } from '../doctor/types.js';
import { EXIT, type CliContext } from '../types.js';
import { CLI_SSH, loadConfig } from './host-state.js';
import { parseProbe, probePrograms, probeScript, probeVerdicts } from './probe.js';

export async function hostsCheck(ctx: CliContext, name: string | undefined): Promise<number> {
  const config = loadConfig(ctx.paths, ctx.env, ctx.err, ctx.t);
  if (!config) return EXIT.badConfig;
  const host = config.hosts.find((h) => h.name === name);
  if (!host) {
    const known = config.hosts.map((h) => h.name).join(', ') || ctx.t('hosts.check.noneYet');
    ctx.err(name ? ctx.t('hosts.check.noHost', { name, known, cmd: ctx.cmd }) : ctx.t('hosts.check.noName', { known, cmd: ctx.cmd }));
    return EXIT.usage;
  }
  // Labels and levels are never translated (scripts grep them); `--json` keeps the English detail and fix.
  const t = ctx.flags.json ? translator('en') : ctx.t;
  const programs = probePrograms(config.bots);
  // The script goes on stdin: the remote command line (`sh -s`) is fixed and shows nothing of ours in the host's `ps`.
  const res = await runOverSsh(host, sshPlaces(ctx.paths), ['sh', '-s'], { stdin: probeScript(programs, host.workingDirs ?? []), ssh: CLI_SSH, env: ctx.env, timeoutMs: 60_000 });
  let lines: DoctorLine[];
  if (res.failure) {
    lines = [{ level: 'FAIL', label: 'ssh', detail: `${host.name} (${host.ssh}): ${res.failure.detail}`, fix: sshFailureFix(res.failure, ctx.cmd, host.name, host.ssh, host.port) }];
  } else {
    const answer = parseProbe(res.stdout);
    lines = [{ level: 'OK', label: 'ssh', detail: t('hosts.check.answers', { name: host.name, ssh: host.ssh }) }, ...probeVerdicts(host, answer, programs, t)];
    if (answer.get('end') !== '1') lines.push({ level: 'WARN', label: 'check', detail: t('hosts.check.endedEarly', { code: String(res.code) }), fix: t('hosts.check.again', { cmd: ctx.cmd, name: host.name }) });
  }
  if (ctx.flags.json) ctx.out(JSON.stringify(lines, null, 2));
  else for (const l of lines) ctx.out(formatDoctorLine(l));
  return lines.some((l) => l.level === 'FAIL') ? EXIT.failure : EXIT.ok;
}
