// The host agent: one process per host, on one ssh channel. It forks each session's worker with Node IPC exactly as
// the daemon's WorkerPool does locally, and carries their messages to and from the daemon as frames tagged by session.
import type { ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { encodeFrame, FrameDecoder } from '../../shared/frame-codec.js';
import { HOST_AGENT_PROTOCOL_VERSION, parseDaemonToAgent, type AgentGitAsk, type AgentToDaemon, type DaemonToAgent } from '../../shared/host-agent-protocol.js';
import { IPC_PROTOCOL_VERSION } from '../../shared/ipc.js';
import { forkWorkerProcess } from '../../platform/worker-process.js';
import { answerChangesInWords } from './host-changes.js';
import { PaneAsks } from './pane-asks.js';

export const HOST_AGENT_TIMING = {
  /** After the link is lost, a worker asked to detach gets this long before SIGTERM (as the pool's close grace). */
  detachGraceMs: 5_000,
  /**
   * Bytes waiting for a slow or stalled link above which a worker's `screen` is held back instead of queued: only the
   * newest one per session is kept and sent when the link drains (a screen replaces the one before, so nothing a card
   * needs is lost), and a link down for a while does not pile up screens in memory. Every other message always goes.
   */
  screenHoldBytes: 4 * 1024 * 1024,
  /**
   * How often the host's free memory is said to the daemon (also once right after the hello). Admission reads the
   * newest; one small file read and one frame every 15 s is nothing next to the idle budget.
   */
  memoryReportMs: 15_000,
} as const;

export type AgentLog = (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, unknown>) => void;

export interface HostAgentOptions {
  input: Readable;
  output: Writable;
  /** The worker's entry (main.js next to the agent in the bundle). */
  workerEntry: string;
  /** The bundle's sha (sha256 of its SHA256SUMS), said in the hello. */
  sha: string;
  /** The agent's own environment: workers get its allowlisted part, as local workers get the daemon's. */
  env: NodeJS.ProcessEnv;
  log: AgentLog;
  /** Called once every worker is gone after the link was lost. */
  onDone: () => void;
  /** The tmux server the workers here use: the pane socket finds its callers' panes on it (null: tmux's default). */
  tmuxSocket?: string | null;
  /** Called once when the link is lost, after waiting pane callers were answered (the pane socket closes then). */
  onLinkLost?: () => void;
  /** The host's MemAvailable in bytes, null when unknown (platform/meminfo.ts). */
  memAvailable: () => number | null;
  /** Overrides HOST_AGENT_TIMING.screenHoldBytes (tests). */
  screenHoldBytes?: number;
}

interface HostedWorker {
  child: ChildProcess;
  stderrTail: () => string;
}

export class HostAgent {
  private readonly workers = new Map<string, HostedWorker>();
  private readonly decoder = new FrameDecoder();
  private linkLost = false;
  /** The newest screen of each session held back while the link drains. */
  private readonly heldScreens = new Map<string, unknown>();
  /** `larkmux where|send` from this host's panes, relayed to the daemon (its socket is wired by host-agent-main). */
  readonly paneAsks: PaneAsks;
  private memoryTimer: NodeJS.Timeout | null = null;

  constructor(private readonly opts: HostAgentOptions) {
    this.paneAsks = new PaneAsks({
      tmuxSocket: opts.tmuxSocket ?? null,
      log: opts.log,
      toDaemon: (frame) => {
        if (this.linkLost) return false;
        this.write(frame);
        return true;
      },
    });
  }

  run(): void {
    this.opts.output.on('error', (err) => this.opts.log('warn', 'writing to the daemon failed (link lost?)', { err: err.message }));
    this.opts.output.on('drain', () => this.releaseScreens());
    this.write({ kind: 'hello', protocol: HOST_AGENT_PROTOCOL_VERSION, ipcProtocol: IPC_PROTOCOL_VERSION, sha: this.opts.sha, pid: process.pid });
    this.reportMemory();
    this.memoryTimer = setInterval(() => this.reportMemory(), HOST_AGENT_TIMING.memoryReportMs);
    this.memoryTimer.unref();
    this.opts.input.on('data', (chunk: Buffer) => {
      for (const ev of this.decoder.push(chunk)) {
        if (ev.kind === 'dropped') this.dropped(`${ev.reason} frame of ${ev.bytes} bytes`);
        else this.handle(ev.value);
      }
    });
    this.opts.input.on('end', () => this.loseLink());
    this.opts.input.on('close', () => this.loseLink());
    this.opts.input.on('error', () => this.loseLink());
  }

  private reportMemory(): void {
    this.write({ kind: 'memory', availableBytes: this.opts.memAvailable() });
  }

  private dropped(reason: string): void {
    this.opts.log('warn', 'frame from the daemon dropped', { reason });
    this.write({ kind: 'dropped', reason: reason.slice(0, 1024) });
  }

  private handle(raw: unknown): void {
    const parsed = parseDaemonToAgent(raw);
    if (!parsed.ok) {
      // A git question we refuse (a diff, a relative folder) is still answered by its id: its asker does not wait on it.
      const gitId = gitAskId(raw);
      if (gitId !== null) return this.write({ kind: 'git_answer', id: gitId, result: { ok: false, error: `refused: ${parsed.reason}`.slice(0, 500) } });
      return this.dropped(`invalid frame: ${parsed.reason}`);
    }
    const f: DaemonToAgent = parsed.frame;
    if (f.kind === 'start') return this.start(f.session, f.env);
    if (f.kind === 'pane_answer') return this.paneAsks.answered(f.id, f.answer);
    if (f.kind === 'git_ask') return void this.answerGit(f);
    const w = this.workers.get(f.session);
    if (!w) return this.opts.log('warn', 'frame for a session without a worker here', { session: f.session.slice(0, 8), kind: f.kind });
    if (f.kind === 'signal') w.child.kill(f.signal);
    else if (w.child.connected) w.child.send(f.msg, (err) => err && this.opts.log('warn', 'send to worker failed', { session: f.session.slice(0, 8), err: err.message }));
  }

  /** Runs while frames keep flowing (git runs as child processes): several asks may be in flight at once. */
  private async answerGit(ask: AgentGitAsk): Promise<void> {
    this.write({ kind: 'git_answer', id: ask.id, result: await answerChangesInWords(ask.request) });
  }

  private start(session: string, env: Record<string, string>): void {
    if (this.linkLost) return;
    if (this.workers.has(session)) return this.opts.log('warn', 'start for a session whose worker runs; ignored', { session: session.slice(0, 8) });
    const { child, stderrTail } = forkWorkerProcess(this.opts.workerEntry, this.opts.env, env, session);
    const hosted: HostedWorker = { child, stderrTail };
    this.workers.set(session, hosted);
    child.on('spawn', () => child.pid && this.write({ kind: 'started', session, pid: child.pid }));
    child.on('message', (msg: unknown) => this.fromWorker(session, msg));
    child.on('error', (err) => this.opts.log('error', 'worker process error', { session: session.slice(0, 8), err: err.message }));
    child.on('exit', (code, signal) => {
      if (this.workers.get(session) === hosted) this.workers.delete(session);
      this.heldScreens.delete(session);
      this.write({ kind: 'exit', session, code, signal, ...(hosted.stderrTail() ? { stderrTail: hosted.stderrTail() } : {}) });
      if (this.linkLost && this.workers.size === 0) this.opts.onDone();
    });
  }

  private fromWorker(session: string, msg: unknown): void {
    const isScreen = (msg as { type?: unknown } | null)?.type === 'screen';
    // Held only while a 'drain' is due (writableNeedDrain), so the one that releases it is sure to come.
    const out = this.opts.output;
    if (isScreen && (this.heldScreens.has(session) || (out.writableNeedDrain && out.writableLength > (this.opts.screenHoldBytes ?? HOST_AGENT_TIMING.screenHoldBytes)))) {
      this.heldScreens.set(session, msg);
      return;
    }
    this.write({ kind: 'msg', session, msg });
  }

  /** The screen held back for `session` while the link drains, if any. */
  heldScreen(session: string): unknown {
    return this.heldScreens.get(session);
  }

  private releaseScreens(): void {
    const held = [...this.heldScreens];
    this.heldScreens.clear();
    for (const [session, msg] of held) this.write({ kind: 'msg', session, msg });
  }

  private write(frame: AgentToDaemon): void {
    if (this.linkLost) return;
    let bytes: Uint8Array;
    try {
      bytes = encodeFrame(frame);
    } catch (err) {
      this.opts.log('error', 'a frame for the daemon could not be encoded; dropped', { kind: frame.kind, err: (err as Error).message });
      return;
    }
    this.opts.output.write(bytes);
  }

  /**
   * The daemon is gone (link lost, or it closed the channel): every worker detaches, as a local worker does when the
   * daemon stops, so the CLIs keep running in tmux; the next connection's agent forks workers that attach to them.
   */
  private loseLink(): void {
    if (this.linkLost) return;
    this.linkLost = true;
    this.paneAsks.linkLost();
    // After the callers that waited got that answer (written from the microtasks linkLost set off), not before.
    setImmediate(() => this.opts.onLinkLost?.());
    if (this.memoryTimer) clearInterval(this.memoryTimer);
    this.opts.log('info', 'link to the daemon closed; detaching the workers', { workers: this.workers.size });
    if (this.workers.size === 0) return this.opts.onDone();
    for (const { child } of this.workers.values()) {
      if (child.connected) child.send({ type: 'close', mode: 'detach' }, () => undefined);
      setTimeout(() => child.kill('SIGTERM'), HOST_AGENT_TIMING.detachGraceMs).unref();
    }
  }
}

/** The id of what looks like a git_ask, to answer even one whose question is refused; null for anything else. */
function gitAskId(raw: unknown): number | null {
  const f = raw as { kind?: unknown; id?: unknown } | null;
  return typeof f === 'object' && f !== null && f.kind === 'git_ask' && Number.isSafeInteger(f.id) && (f.id as number) > 0 ? (f.id as number) : null;
}
