// One other host as the daemon reaches it: over its ControlMaster it makes sure the worker bundle is there, starts the
// host agent on one ssh channel, and sorts the agent's frames to the sessions' RemoteWorkers. A dropped link ends every
// worker there with cause `link_lost` (their CLIs keep running in tmux); the next start connects again.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Logger } from '../../platform/log.js';
import type { BundleManifest } from '../../platform/bundle-manifest.js';
import { DEFAULT_REMOTE_ROOT, ensureRemoteBundle, hostHomeOfBundle, type RemoteBundleResult } from '../../platform/ssh/remote-bundle.js';
import { sshArgv, type SshPlaces } from '../../platform/ssh/ssh-argv.js';
import type { SshFailureKind } from '../../platform/ssh/ssh-failure.js';
import { closeMaster } from '../../platform/ssh/ssh-run.js';
import { quoteShellArg } from '../../shared/shell-quote.js';
import { encodeFrame, FrameDecoder } from '../../shared/frame-codec.js';
import { parseAgentToDaemon, type AgentPaneAnswer, type AgentPaneAsk, type AgentToDaemon, type DaemonToAgent } from '../../shared/host-agent-protocol.js';
import type { HostChangesResult, LinkGitRequest } from '../../shared/host-changes-protocol.js';
import type { HostConfig } from '../../shared/host-config.js';
import type { RemoteWorkerStarter } from './worker-pool.js';
import { RemoteWorker } from './remote-worker.js';
import { RemoteWebForwards } from './remote-web-forwards.js';
import { LinkGitAsks } from './link-git-asks.js';

export const REMOTE_HOST_TIMING = {
  /**
   * From starting the agent to its hello. Node starts in well under a second; ssh over a live ControlMaster adds a
   * round trip. Longer means the host hangs: the link is given up (reported as lost), never waited on forever.
   */
  helloTimeoutMs: 30_000,
} as const;

export interface RemoteHostOptions {
  host: HostConfig;
  places: SshPlaces;
  log: Logger;
  /** The daemon's own built worker bundle (read once, when first needed). */
  bundle: () => BundleManifest;
  /** Where larkmux keeps its files on the host (bundles/, the workers' LARKMUX_HOME); default ~/.larkmux. */
  remoteRoot?: string;
  /** Environment of the local ssh processes (tests: HOME for ssh's own files). */
  sshEnv?: NodeJS.ProcessEnv;
  /** Answers `larkmux where|send` from a pane on this host (the daemon decides the session; see pane-requests.ts). */
  answerPane?: (host: string, ask: AgentPaneAsk) => Promise<AgentPaneAnswer>;
  /** Overrides LINK_GIT_LIMITS.timeoutMs (tests). */
  gitAskTimeoutMs?: number;
}

interface Link {
  ssh: ChildProcessWithoutNullStreams;
  /** The agent said hello: frames may go. */
  up: boolean;
  /** The workers' LARKMUX_HOME on the host (the root, absolute). */
  home: string;
}

export class RemoteHost implements RemoteWorkerStarter {
  private readonly workers = new Map<string, RemoteWorker>();
  private link: Link | null = null;
  private connecting: Promise<void> | null = null;
  private disposed = false;
  private readonly log: Logger;
  /** The workers' web terminals, reached through stream-local forwards on this host's ControlMaster. */
  private readonly webForwards: RemoteWebForwards;
  /** Git questions about sessions' folders waiting for the agent's answer on the link. */
  private readonly gitAsks: LinkGitAsks;

  constructor(private readonly opts: RemoteHostOptions) {
    this.log = opts.log.child({ host: opts.host.name });
    this.gitAsks = new LinkGitAsks(opts.gitAskTimeoutMs);
    this.webForwards = new RemoteWebForwards({ host: opts.host, places: opts.places, log: this.log, ...(opts.sshEnv ? { sshEnv: opts.sshEnv } : {}) });
  }

  /** The agent's pid on the host while the link is up (tests, status). */
  agentPid: number | undefined;
  /**
   * When and why the link was last lost or could not be made (English, for logs and `hosts`; no secret in it: ssh's
   * own words are classified, never passed on), null while it never was. The daemon words the topic's notice.
   */
  lastLoss: { at: number; why: string } | null = null;
  /**
   * The host's free memory (MemAvailable, bytes) as its agent last said it; null while unknown — no link, or a host
   * without /proc/meminfo — and admission never blocks on an unknown (capacity.ts).
   */
  memoryAvailable: number | null = null;
  /** The bundle's folder on the host once placed (content-addressed: it stays valid while the daemon runs). */
  private placedDir: string | null = null;
  /**
   * The placement under way: the link's open and a one-shot verb (a turn's git snapshot before the link is up) both
   * need the bundle at once on a fresh host, and must not copy it twice (25 MB, and the copies would race).
   */
  private placing: Promise<RemoteBundleResult> | null = null;

  startWorker(sessionId: string, env: Record<string, string>): RemoteWorker {
    const w: RemoteWorker = new RemoteWorker(sessionId, (socket): Promise<string | null> => (this.link?.up && this.workers.get(sessionId) === w ? this.webForwards.reach(sessionId, socket) : Promise.resolve(null)));
    this.workers.set(sessionId, w);
    const link = this.link;
    if (link?.up) w.linked((f) => this.write(link, f), link.home, env);
    else void this.connect().then(() => {
      const l = this.link;
      if (this.workers.get(sessionId) !== w) return;
      if (w.exited) this.workers.delete(sessionId);
      else if (l?.up) w.linked((f) => this.write(l, f), l.home, env);
    });
    return w;
  }

  /** How ssh reaches the host: for a command of its own over the same ControlMaster (an attachment's copy). */
  get ssh(): { host: HostConfig; places: SshPlaces; env: NodeJS.ProcessEnv | undefined } {
    return { host: this.opts.host, places: this.opts.places, env: this.opts.sshEnv };
  }

  /** larkmux's folder on the host while the link is up (its own files there are never sent); null without a link. */
  get homeOnHost(): string | null {
    return this.link?.home ?? null;
  }

  /**
   * A git question answered by the agent on the link, with no ssh command or node start on the host; null when the
   * link is not up or went before the answer came (the caller asks the one-shot command). Never opens a link itself.
   */
  askGitOnLink(request: LinkGitRequest): Promise<HostChangesResult | null> {
    const link = this.link;
    return this.gitAsks.ask((frame) => (link ? this.write(link, frame) : false), request);
  }

  /** The bundle's folder on the host, placed first if no link has placed it yet. */
  async bundleDir(): Promise<{ ok: true; dir: string } | { ok: false; detail: string }> {
    if (this.placedDir) return { ok: true, dir: this.placedDir };
    let bundle: BundleManifest;
    try {
      bundle = this.opts.bundle();
    } catch (err) {
      return { ok: false, detail: `the worker bundle cannot be read (run \`npm run build\`): ${(err as Error).message}` };
    }
    const placed = await this.place(bundle);
    if (!placed.ok) return { ok: false, detail: placed.detail };
    this.placedDir = placed.dir;
    return { ok: true, dir: placed.dir };
  }

  /** Places the bundle (or finds it there), joining a placement already under way. */
  private place(bundle: BundleManifest): Promise<RemoteBundleResult> {
    this.placing ??= ensureRemoteBundle(this.opts.host, this.opts.places, bundle, this.opts.remoteRoot ?? DEFAULT_REMOTE_ROOT, this.opts.sshEnv).finally(() => (this.placing = null));
    return this.placing;
  }

  /** The bundle folder went missing on the host (someone cleaned it): the next use places it again. */
  forgetBundleDir(): void {
    this.placedDir = null;
  }

  /** Ends the link: the agent detaches its workers (the CLIs keep running) and exits. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.webForwards.cancelAll();
    this.link?.ssh.stdin.end();
    // Best effort (bounded by closeMaster's own timeout): no master is a fine outcome too.
    await closeMaster(this.opts.host, this.opts.places, this.opts.sshEnv).catch(() => false);
  }

  private connect(): Promise<void> {
    this.connecting ??= this.open().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async open(): Promise<void> {
    if (this.disposed) return this.dropAll('the daemon is stopping');
    let bundle: BundleManifest;
    try {
      bundle = this.opts.bundle();
    } catch (err) {
      return this.dropAll(`the worker bundle cannot be read (run \`npm run build\`): ${(err as Error).message}`);
    }
    // One line per attempt: how often a host that is down is tried shows in the log (host-waits.ts paces it).
    this.log.info('connecting to the host');
    const placed = await this.place(bundle);
    if (!placed.ok) return this.dropAll(`the worker bundle could not be placed: ${placed.detail}`, placed.failure?.kind);
    this.placedDir = placed.dir;
    this.log.info({ sha: bundle.sha.slice(0, 12), how: placed.how }, 'worker bundle on the host');
    const home = hostHomeOfBundle(placed.dir);
    // --home: the folder the agent serves the panes' `larkmux` from, the same string the workers get as their home.
    const remote = ['exec', 'node', quoteShellArg(`${placed.dir}/host-agent.js`), '--home', quoteShellArg(home)];
    const ssh = spawn('ssh', sshArgv(this.opts.host, this.opts.places, remote), { stdio: ['pipe', 'pipe', 'pipe'], env: this.opts.sshEnv ?? process.env });
    const link: Link = { ssh, up: false, home };
    this.link = link;
    const decoder = new FrameDecoder();
    let hello!: () => void;
    const said = new Promise<void>((resolve) => (hello = resolve));
    ssh.stdin.on('error', () => undefined);
    ssh.stdout.on('data', (chunk: Buffer) => {
      for (const ev of decoder.push(chunk)) {
        if (ev.kind === 'dropped') this.log.warn({ reason: ev.reason, bytes: ev.bytes }, 'frame from the host agent dropped');
        else this.handle(link, ev.value, bundle.sha, hello);
      }
    });
    let errTail = '';
    ssh.stderr.setEncoding('utf8');
    ssh.stderr.on('data', (d: string) => {
      const lines = (errTail + d).split('\n');
      errTail = (lines.pop() ?? '').slice(-4000);
      for (const line of lines) if (line.trim()) this.log.info({ agent: line.slice(0, 2000) }, 'host agent says');
    });
    ssh.on('error', (err) => this.log.error({ err: err.message }, 'ssh for the host agent failed'));
    ssh.on('close', (code) => {
      if (this.link === link) this.link = null;
      this.agentPid = undefined;
      this.memoryAvailable = null;
      this.gitAsks.giveUpAll();
      hello();
      this.dropAll(`the link to the host closed (ssh exit ${code})`);
    });
    const timer = setTimeout(() => {
      if (link.up) return;
      this.log.error({ ms: REMOTE_HOST_TIMING.helloTimeoutMs }, 'the host agent did not say hello in time; giving the link up');
      ssh.kill('SIGTERM');
    }, REMOTE_HOST_TIMING.helloTimeoutMs);
    await said;
    clearTimeout(timer);
  }

  private handle(link: Link, raw: unknown, sha: string, hello: () => void): void {
    const parsed = parseAgentToDaemon(raw);
    if (!parsed.ok) return this.log.warn({ reason: parsed.reason }, 'invalid frame from the host agent dropped');
    const f: AgentToDaemon = parsed.frame;
    if (f.kind === 'hello') {
      if (f.sha !== sha) {
        // Never a worker from another build than the daemon's: the copy was verified, so this is a broken invariant.
        this.log.error({ want: sha.slice(0, 12), got: f.sha.slice(0, 12) }, 'the host agent runs another bundle; giving the link up');
        link.ssh.kill('SIGTERM');
        return;
      }
      link.up = true;
      this.agentPid = f.pid;
      this.log.info({ agentPid: f.pid, sha: f.sha.slice(0, 12) }, 'host agent up');
      return hello();
    }
    if (f.kind === 'memory') {
      this.memoryAvailable = f.availableBytes;
      return;
    }
    if (f.kind === 'dropped') {
      // It may have been a git_ask (the agent answers even a refused one by id, so only one that does not know it): no
      // answer is coming for any of them.
      this.gitAsks.giveUpAll();
      return this.log.warn({ reason: f.reason }, 'the host agent dropped a frame of ours');
    }
    if (f.kind === 'pane_ask') return void this.answerPane(link, f);
    if (f.kind === 'git_answer') return this.gitAsks.answered(f.id, f.result);
    const w = this.workers.get(f.session);
    if (!w) return;
    if (f.kind === 'started') w.started(f.pid);
    else if (f.kind === 'msg') w.message(f.msg);
    else {
      this.workers.delete(f.session);
      this.webForwards.cancel(f.session);
      w.exit({ code: f.code, signal: (f.signal as NodeJS.Signals | null) ?? null, ...(f.stderrTail ? { stderrTail: f.stderrTail } : {}) });
    }
  }

  /** The answer goes back on the link that asked; a link lost meanwhile told its caller so already (the agent did). */
  private async answerPane(link: Link, ask: AgentPaneAsk): Promise<void> {
    let answer: AgentPaneAnswer;
    try {
      answer = this.opts.answerPane ? await this.opts.answerPane(this.opts.host.name, ask) : { ok: false, error: 'this daemon does not answer panes on hosts' };
    } catch (err) {
      this.log.error({ err: (err as Error).message, cmd: ask.ask.cmd }, 'a pane request from the host failed');
      answer = { ok: false, error: (err as Error).message.slice(0, 1024) };
    }
    this.write(link, { kind: 'pane_answer', id: ask.id, answer });
  }

  private write(link: Link, frame: DaemonToAgent): boolean {
    if (this.link !== link || !link.up || !link.ssh.stdin.writable) return false;
    link.ssh.stdin.write(encodeFrame(frame));
    return true;
  }

  /** Every worker on this host is gone with the link: reported as `link_lost` (with ssh's reason when known), never as a crash. */
  private dropAll(why: string, failure?: SshFailureKind): void {
    if (!this.disposed) this.lastLoss = { at: Date.now(), why };
    if (this.workers.size) this.log.warn({ workers: this.workers.size, why }, 'link to the host lost; its workers are reported gone');
    const ws = [...this.workers.values()];
    this.workers.clear();
    this.webForwards.cancelAll();
    for (const w of ws) w.exit({ code: null, signal: null, cause: 'link_lost', ...(failure ? { linkFailure: failure } : {}) });
  }
}
