// The configured hosts as the pool reaches them: one RemoteHost per host, made when a session there first needs a
// worker, all ended with the daemon (their agents detach the workers; the CLIs keep running on the hosts).
import { dirname } from 'node:path';
import { readBundle, type BundleManifest } from '../../platform/bundle-manifest.js';
import type { Logger } from '../../platform/log.js';
import type { LarkmuxPaths } from '../../platform/paths.js';
import { sshPlaces } from '../../platform/ssh/ssh-run.js';
import type { AgentPaneAnswer, AgentPaneAsk } from '../../shared/host-agent-protocol.js';
import type { HostConfig } from '../../shared/host-config.js';
import { RemoteHost } from './remote-host.js';
import { defaultWorkerEntry } from './worker-pool.js';

/** The host agent's entry in a built bundle (scripts/build-worker.mjs). */
const HOST_AGENT_FILE = 'host-agent.js';

export class RemoteHosts {
  private readonly live = new Map<string, RemoteHost>();
  private bundle: BundleManifest | undefined;

  /** `remoteRoot`: larkmux's folder on every host (default ~/.larkmux there). */
  /** `answerPane`: the daemon's answer to `larkmux where|send` from a pane on a host. */
  constructor(private readonly opts: { hosts: readonly HostConfig[]; paths: LarkmuxPaths; log: Logger; remoteRoot?: string; answerPane?: (host: string, ask: AgentPaneAsk) => Promise<AgentPaneAnswer> }) {}

  /** The host's RemoteHost, or undefined when no host of that name is configured. */
  get(name: string): RemoteHost | undefined {
    const have = this.live.get(name);
    if (have) return have;
    const host = this.opts.hosts.find((h) => h.name === name);
    if (!host) return undefined;
    const made = new RemoteHost({ host, places: sshPlaces(this.opts.paths), log: this.opts.log, bundle: () => this.ownBundle(), ...(this.opts.remoteRoot ? { remoteRoot: this.opts.remoteRoot } : {}), ...(this.opts.answerPane ? { answerPane: this.opts.answerPane } : {}) });
    this.live.set(name, made);
    return made;
  }

  /** The host's RemoteHost if one was made (a session there needed it), without making one. */
  peek(name: string): RemoteHost | undefined {
    return this.live.get(name);
  }

  /** The daemon's own built bundle, read once (a daemon run from source has none: it says to build). */
  private ownBundle(): BundleManifest {
    if (this.bundle) return this.bundle;
    const dir = dirname(defaultWorkerEntry().entry);
    const read = readBundle(dir);
    // Run from source, the worker's folder is src/worker: shipped, its agent would fail on every host ("Cannot find
    // module host-agent.js") in a loop; said once per attempt instead, as the build's absence.
    if (!read.files.some((f) => f.name === HOST_AGENT_FILE)) throw new Error(`${dir} has no ${HOST_AGENT_FILE}: the daemon does not run from a build`);
    this.bundle = read;
    return read;
  }

  /**
   * Ends every host's link and closes its ControlMaster: a master left behind would outlive the daemon by its
   * ControlPersist (ten minutes), holding a connection to the host and a socket in a folder that may be removed.
   */
  async dispose(): Promise<void> {
    const hosts = [...this.live.values()];
    this.live.clear();
    await Promise.all(hosts.map((h) => h.dispose()));
  }
}
