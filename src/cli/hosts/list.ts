// `larkmux hosts` / `larkmux hosts list`: each host, its ssh target, whether its key is pinned, and whether it answers.
import { sshFailureFix } from '../../platform/ssh/ssh-failure.js';
import { EXIT, type CliContext } from '../types.js';
import { hostIsPinned, loadConfig, probeReach } from './host-state.js';

export async function hostsList(ctx: CliContext): Promise<number> {
  const config = loadConfig(ctx.paths, ctx.env, ctx.err, ctx.t);
  if (!config) return EXIT.badConfig;
  const rows = await Promise.all(
    config.hosts.map(async (h) => {
      const pinned = hostIsPinned(ctx.paths, h);
      const { reach, failure } = await probeReach(ctx.paths, h, ctx.env);
      return { name: h.name, ssh: h.ssh, port: h.port ?? 22, pinned, state: reach, detail: failure?.detail ?? '', fix: failure ? sshFailureFix(failure, ctx.cmd, h.name, h.ssh, h.port) : '' };
    }),
  );
  if (ctx.flags.json) {
    ctx.out(JSON.stringify(rows, null, 2));
    return EXIT.ok;
  }
  if (!rows.length) {
    ctx.out(`no hosts configured; add one with \`${ctx.cmd} hosts add NAME user@host\` (this machine is "local")`);
    return EXIT.ok;
  }
  const w = Math.max(4, ...rows.map((r) => r.name.length));
  const t = Math.max(3, ...rows.map((r) => `${r.ssh}:${r.port}`.length));
  ctx.out(`${'NAME'.padEnd(w)}  ${'SSH'.padEnd(t)}  ${'KEY'.padEnd(10)}  STATE`);
  for (const r of rows) {
    ctx.out(`${r.name.padEnd(w)}  ${`${r.ssh}:${r.port}`.padEnd(t)}  ${(r.pinned ? 'pinned' : 'not pinned').padEnd(10)}  ${r.state}${r.detail ? ` (${r.detail})` : ''}`);
    if (r.fix) ctx.out(`${''.padEnd(w)}  fix: ${r.fix}`);
  }
  return EXIT.ok;
}
