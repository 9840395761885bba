// `larkmux hosts add NAME user@host`: reads the host's key once, shows its fingerprint, pins it in LARKMUX_HOME/known_hosts
// after a person confirms it (or `--accept` names it), and adds the host to config.json. Also re-pins a changed key.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { expandHome } from '../../platform/paths.js';
import { fingerprint, keyToPin, knownHostsName, parseKeyscan, pinInKnownHosts, sameFingerprint } from '../../platform/ssh/known-hosts.js';
import { sshHostPart } from '../../platform/ssh/ssh-argv.js';
import { sshFailureFix } from '../../platform/ssh/ssh-failure.js';
import { scanHostKeys, sshPlaces } from '../../platform/ssh/ssh-run.js';
import { HostConfigSchema, HostNameSchema } from '../../shared/host-config.js';
import { createPrompter } from '../setup/prompter.js';
import { readRawConfig, validateMerged, writeConfigFile } from '../setup/config-writer.js';
import { EXIT, type CliContext } from '../types.js';
import { probeReach } from './host-state.js';
import { mergeHost, type AddedHost } from './merge-host.js';

function parseAdd(ctx: CliContext): { ok: true; host: AddedHost } | { ok: false; message: string } {
  const [name, ssh, extra] = ctx.args.slice(1);
  if (!name || !ssh || extra) return { ok: false, message: 'usage: larkmux hosts add NAME user@host [--port N] [--identity FILE] [--accept SHA256:…]' };
  const okName = HostNameSchema.safeParse(name);
  if (!okName.success) return { ok: false, message: `host name "${name}": ${okName.error.issues[0]!.message}` };
  const port = typeof ctx.flags.port === 'string' ? Number(ctx.flags.port) : undefined;
  const identityFile = typeof ctx.flags.identity === 'string' ? resolve(expandHome(ctx.flags.identity)) : undefined;
  const res = HostConfigSchema.safeParse({ name, ssh, port, identityFile });
  if (!res.success) {
    const i = res.error.issues[0]!;
    return { ok: false, message: `${String(i.path[0] ?? 'host')}: ${i.message}` };
  }
  if (identityFile && !existsSync(identityFile)) return { ok: false, message: `--identity ${identityFile}: no such file` };
  return { ok: true, host: { name, ssh, port, identityFile } };
}

/** Whether the person confirms the fingerprint: `--accept` must match it; without it, a terminal is asked. */
async function confirmed(ctx: CliContext, fp: string): Promise<{ ok: boolean; code: number }> {
  const accept = ctx.flags.accept;
  if (typeof accept === 'string') {
    if (sameFingerprint(accept, fp)) return { ok: true, code: EXIT.ok };
    ctx.err(`refused: --accept ${accept} is not the host's key (${fp}); nothing was written. Compare on the host: ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub`);
    return { ok: false, code: EXIT.failure };
  }
  if (!process.stdin.isTTY) {
    ctx.err(`not a terminal: compare the fingerprint on the host (ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub), then run again with --accept ${fp}`);
    return { ok: false, code: EXIT.usage };
  }
  const p = createPrompter(process.stdin, process.stderr);
  try {
    const answer = await p.ask('Is this the key the host shows (ssh-keygen -lf /etc/ssh/ssh_host_*_key.pub there)? Pin it? [y/N] ');
    const yes = /^y(es)?$/i.test(answer ?? '');
    if (!yes) ctx.err('not pinned; nothing was written');
    return { ok: yes, code: yes ? EXIT.ok : EXIT.failure };
  } finally {
    p.dispose();
  }
}

function writeKnownHosts(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.add-${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

export async function hostsAdd(ctx: CliContext): Promise<number> {
  const parsed = parseAdd(ctx);
  if (!parsed.ok) {
    ctx.err(`larkmux hosts add: ${parsed.message}`);
    return EXIT.usage;
  }
  const host = parsed.host;
  const raw = readRawConfig(ctx.paths.config);
  if (!raw.ok) {
    ctx.err(raw.message);
    return EXIT.badConfig;
  }
  const merged = mergeHost(raw.raw, host);
  if (!merged.ok) {
    ctx.err(merged.message);
    return EXIT.badConfig;
  }
  const problems = validateMerged(merged.raw, ctx.env);
  if (problems.length) {
    ctx.err('config.json would not be valid with this host; nothing was written:');
    for (const p of problems) ctx.err(`  ${p}`);
    return EXIT.badConfig;
  }
  const scan = await scanHostKeys(host, ctx.env);
  const key = keyToPin(parseKeyscan(scan.stdout));
  if (!key && scan.code === 127 && !scan.stderr) {
    ctx.err('ssh-keyscan was not found; install openssh-client (Debian/Ubuntu: apt-get install openssh-client). Nothing was written.');
    return EXIT.failure;
  }
  if (!key) {
    ctx.err(`cannot read a host key from ${sshHostPart(host.ssh)}${host.port ? ` port ${host.port}` : ''}: ${scan.timedOut ? 'no answer in time' : 'nothing answered'}; check that the host is up and sshd listens there. Nothing was written.`);
    return EXIT.failure;
  }
  const fp = fingerprint(key);
  ctx.out(`${host.name} (${host.ssh}${host.port ? ` port ${host.port}` : ''}) offers the host key ${key.type} ${fp}`);
  const ok = await confirmed(ctx, fp);
  if (!ok.ok) return ok.code;
  const places = sshPlaces(ctx.paths);
  const before = existsSync(places.knownHosts) ? readFileSync(places.knownHosts, 'utf8') : '';
  writeKnownHosts(places.knownHosts, pinInKnownHosts(before, knownHostsName(sshHostPart(host.ssh), host.port), key));
  writeConfigFile(ctx.paths.config, merged.raw);
  ctx.out(`pinned ${fp} in ${places.knownHosts}; ${merged.replaced ? 'updated' : 'added'} host "${host.name}" in ${ctx.paths.config}`);
  const { reach, failure } = await probeReach(ctx.paths, HostConfigSchema.parse(host), ctx.env);
  if (reach === 'reachable') ctx.out(`connected to ${host.name} with this key; next: \`${ctx.cmd} hosts check ${host.name}\``);
  else if (failure) ctx.out(`could not log in yet: ${failure.detail}\nfix: ${sshFailureFix(failure, ctx.cmd, host.name, host.ssh, host.port)}`);
  return EXIT.ok;
}
