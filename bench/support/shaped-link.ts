// The link to the benchmark's host: a network namespace this run makes, joined to this one by its own veth pair, with
// tc's netem delaying each direction by 25 ms (a 50 ms round trip) where the kernel has netem. Without netem the
// namespace is still used, unshaped; without namespaces (no permission, no `ip`) the host is on loopback. `why` says
// what was missing, for stderr.
import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';

export interface HostLink {
  /** Where the host's sshd listens. */
  address: string;
  /** Words that run a command in the host's namespace (empty on loopback). */
  wrap: string[];
  /** Whether each direction is delayed by `delayMs`. */
  shaped: boolean;
  delayMs: number;
  why?: string;
  remove(): void;
}

const DELAY_MS = 25;

const run = (args: readonly string[]) => spawnSync(args[0]!, args.slice(1), { encoding: 'utf8' });
const failure = (args: readonly string[]) => {
  const r = run(args);
  return r.error || r.status !== 0 ? `\`${args.join(' ')}\` failed: ${(r.error?.message ?? r.stderr).trim()}` : null;
};

export function makeHostLink(): HostLink {
  const tag = process.pid % 100_000;
  const ns = `lmxbench${tag}`;
  const outer = `lmxa${tag}`;
  const inner = `lmxb${tag}`;
  const net = `10.231.${tag % 250}`;
  const inNs = (...args: string[]) => ['ip', 'netns', 'exec', ns, ...args];
  const remove = () => {
    run(['ip', 'link', 'del', outer]);
    run(['ip', 'netns', 'del', ns]);
  };
  const steps = [
    ['ip', 'netns', 'add', ns],
    ['ip', 'link', 'add', outer, 'type', 'veth', 'peer', 'name', inner],
    ['ip', 'link', 'set', inner, 'netns', ns],
    ['ip', 'addr', 'add', `${net}.1/30`, 'dev', outer],
    ['ip', 'link', 'set', outer, 'up'],
    inNs('ip', 'addr', 'add', `${net}.2/30`, 'dev', inner),
    inNs('ip', 'link', 'set', inner, 'up'),
    inNs('ip', 'link', 'set', 'lo', 'up'),
  ];
  for (const step of steps) {
    const why = failure(step);
    if (why) {
      remove();
      return { address: '127.0.0.1', wrap: [], shaped: false, delayMs: 0, why: `no network namespace (${why}); host on loopback`, remove: () => undefined };
    }
  }
  const link = { address: `${net}.2`, wrap: inNs(), delayMs: DELAY_MS, remove };
  const why = failure(['tc', 'qdisc', 'add', 'dev', outer, 'root', 'netem', 'delay', `${DELAY_MS}ms`]) ?? failure(inNs('tc', 'qdisc', 'add', 'dev', inner, 'root', 'netem', 'delay', `${DELAY_MS}ms`));
  return why ? { ...link, shaped: false, delayMs: 0, why: `no netem (${why}); the namespace's link is unshaped` } : { ...link, shaped: true };
}

/** Median TCP connect time to address:port (one SYN / SYN-ACK round trip), in ms. */
export async function connectRttMs(address: string, port: number, tries = 7): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < tries; i++) {
    times.push(await new Promise<number>((resolve, reject) => {
      const t0 = performance.now();
      const c = connect({ host: address, port }, () => {
        resolve(performance.now() - t0);
        c.destroy();
      });
      c.once('error', reject);
    }));
  }
  return times.sort((a, b) => a - b)[Math.floor(tries / 2)]!;
}
