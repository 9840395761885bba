// `larkmux hosts check NAME`: over SSH, node, tmux, the bots' CLIs, free disk and the working dirs, each miss with its fix.
import { sshFailureFix } from '../../platform/ssh/ssh-failure.js';
import { runOverSsh, sshPlaces } from '../../platform/ssh/ssh-run.js';
import { formatDoctorLine } from '../doctor/format.js';
import type { DoctorLine } from '../doctor/types.js';
import { EXIT, type CliContext } from '../types.js';
import { CLI_SSH, loadConfig } from './host-state.js';
import { parseProbe, probePrograms, probeScript, probeVerdicts } from './probe.js';

export async function hostsCheck(ctx: CliContext, name: string | undefined): Promise<number> {
  const config = loadConfig(ctx.paths, ctx.env, ctx.err);
  if (!config) return EXIT.badConfig;
  const host = config.hosts.find((h) => h.name === name);
  if (!host) {
    const known = config.hosts.map((h) => h.name).join(', ') || 'none yet';
    ctx.err(`larkmux hosts check: ${name ? `no host named "${name}"` : 'name the host to check'} (configured: ${known}); \`${ctx.cmd} hosts add NAME user@host\` adds one`);
    return EXIT.usage;
  }
  const programs = probePrograms(config.bots);
  // The script goes on stdin: the remote command line (`sh -s`) is fixed and shows nothing of ours in the host's `ps`.
  const res = await runOverSsh(host, sshPlaces(ctx.paths), ['sh', '-s'], { stdin: probeScript(programs, host.workingDirs ?? []), ssh: CLI_SSH, env: ctx.env, timeoutMs: 60_000 });
  let lines: DoctorLine[];
  if (res.failure) {
    lines = [{ level: 'FAIL', label: 'ssh', detail: `${host.name} (${host.ssh}): ${res.failure.detail}`, fix: sshFailureFix(res.failure, ctx.cmd, host.name, host.ssh, host.port) }];
  } else {
    const answer = parseProbe(res.stdout);
    lines = [{ level: 'OK', label: 'ssh', detail: `${host.name} (${host.ssh}) answers; host key matches the pinned one` }, ...probeVerdicts(host, answer, programs)];
    if (answer.get('end') !== '1') lines.push({ level: 'WARN', label: 'check', detail: `the host's answer ended early (exit ${res.code}); some checks may be missing`, fix: `run \`${ctx.cmd} hosts check ${host.name}\` again` });
  }
  if (ctx.flags.json) ctx.out(JSON.stringify(lines, null, 2));
  else for (const l of lines) ctx.out(formatDoctorLine(l));
  return lines.some((l) => l.level === 'FAIL') ? EXIT.failure : EXIT.ok;
}
