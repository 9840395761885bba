// `/adopt` on another host: each request goes over the host's ControlMaster to the bundle's agent run as `adopt`
// (worker/host/host-adopt.ts), which scans or links on larkmux's tmux server there. The remote command line holds only
// the bundle's path and the verb; the request (folder, CLI, pane) goes on stdin (remote-agent-verb.ts).
import type { CliSpec } from '../../shared/cli-spec.js';
import { hostHomeOfBundle } from '../../platform/ssh/remote-bundle.js';
import {
  HOST_ADOPT_VERB, HostAdoptLinkResultSchema, HostAdoptListResultSchema,
  type HostAdoptLinkResult, type HostAdoptListResult, type HostAdoptRequest, type HostPanes,
} from '../../shared/host-adopt-protocol.js';
import type { RemoteHost } from './remote-host.js';
import { runAgentVerb } from './remote-agent-verb.js';

export const REMOTE_ADOPT_TIMING = {
  /**
   * A host's list at the latest, the bundle's first copy included: a host that has not answered by then is left out
   * of the list (said in one line), so a slow or unreachable host never holds up the panes of the others.
   */
  listTimeoutMs: 10_000,
  /** Linking a chosen pane: one scan and one tmux chain on the host; longer means the host hangs. */
  linkTimeoutMs: 30_000,
} as const;

type Request = HostAdoptRequest extends infer R ? (R extends unknown ? Omit<R, 'home'> : never) : never;

/** The request with the host's larkmux home (beside the bundle's folder there) on the agent's stdin. */
const adoptInput = (req: Request) => (bundleDir: string) => JSON.stringify({ ...req, home: hostHomeOfBundle(bundleDir) }) + '\n';

function timedOut<T>(ms: number, value: T): { promise: Promise<T>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(value), ms)));
  return { promise, cancel: () => clearTimeout(timer) };
}

/** The host's adoptable panes for a bot whose CLI is `cli`, or why there are none (`timeout`: no answer in time). */
export async function listOnHost(host: RemoteHost, cli: CliSpec, timeoutMs: number = REMOTE_ADOPT_TIMING.listTimeoutMs): Promise<HostAdoptListResult | { ok: false; code: 'timeout' }> {
  const late = timedOut(timeoutMs, { ok: false, code: 'timeout' } as const);
  const asked = runAgentVerb(host, HOST_ADOPT_VERB, adoptInput({ action: 'list', cli }), HostAdoptListResultSchema, { timeoutMs })
    .then((r): HostAdoptListResult => (r.ok ? r.answer : { ok: false, code: 'scan_failed', message: r.error }));
  try {
    return await Promise.race([asked, late.promise]);
  } finally {
    late.cancel();
  }
}

/** Links (or with `unlink`, unlinks) a pane on the host into larkmux's `tmuxName` session there. */
export async function linkOnHost(host: RemoteHost, req: Extract<Request, { action: 'link' | 'unlink' }>): Promise<HostAdoptLinkResult> {
  const r = await runAgentVerb(host, HOST_ADOPT_VERB, adoptInput(req), HostAdoptLinkResultSchema, { timeoutMs: REMOTE_ADOPT_TIMING.linkTimeoutMs });
  return r.ok ? r.answer : { ok: false, code: 'link_failed', message: r.error };
}

/** /adopt's view of the configured hosts: `get` is the daemon's RemoteHosts.get (undefined for a name not configured). */
export function hostPanesOf(names: readonly string[], get: (name: string) => RemoteHost | undefined): HostPanes {
  return {
    names,
    listTimeoutSeconds: REMOTE_ADOPT_TIMING.listTimeoutMs / 1000,
    roots: (name) => get(name)?.ssh.host.workingDirs,
    list: async (name, cli) => {
      const host = get(name);
      return host ? listOnHost(host, cli) : { ok: false, code: 'scan_failed', message: `no host ${name} is configured` };
    },
    link: async (name, req) => {
      const host = get(name);
      return host ? linkOnHost(host, req) : { ok: false, code: 'link_failed', message: `no host ${name} is configured` };
    },
  };
}
