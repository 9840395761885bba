// SessionRuntime: the thin shell around the input state machine — executes its effects with the backend, gate and monitor.
import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import type { Logger } from '../../platform/log.js';
import type { DaemonToWorker, SessionStatus, WorkerToDaemon } from '../../shared/ipc.js';
import type { SessionBackend } from '../backend/types.js';
import type { CliAdapter } from '../cli/types.js';
import { initialInput, inputStep, type InputEffect, type InputEvent, type InputState, type QueuedMessage } from '../lifecycle/input-machine.js';
import { isBusyStatus } from '../lifecycle/status.js';
import { gateTimingFor } from '../lifecycle/readiness.js';
import { takeoverReadiness, type TakeoverReadiness } from '../lifecycle/takeover-ready.js';
import { applySeedFiles } from '../cli/seed.js';
import { deliver } from './deliverer.js';
import { endExitingCli, sessionCheckOf } from './exiting-cli.js';
import { GateRunner, type GateOutcome } from './gate-runner.js';
import { Monitor } from './monitor.js';
import { paneHint } from '../cli/pane-hint.js';
import { larkmuxPaths } from '../../platform/paths.js';
import { paneCommandEnv } from '../../shared/pane-command.js';
import { resolveProgram } from './resolve-program.js';
import { interruptTurn } from './interrupt-turn.js';
import { CLI_STEERS } from '../../shared/cli-spec.js';
import { literalChatText } from '../../shared/chat-text.js';
import { takeInFlight } from './in-flight-input.js';
import type { StatusReporter } from './status-reporter.js';

type InitMsg = Extract<DaemonToWorker, { type: 'init' }>;

export interface SessionRuntimeDeps {
  init: InitMsg;
  adapter: CliAdapter;
  backend: SessionBackend;
  log: Logger;
  send(msg: WorkerToDaemon): void;
  status: StatusReporter;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export class SessionRuntime {
  private state: InputState;
  private readonly monitor: Monitor;
  private gate: GateRunner | null = null;
  private nativeSessionId: string | undefined;
  private launchedAt = Date.now();
  /** The CLI taken over by the last start had been running this long (null: launched by us, or unknown). */
  private cliRunningForMs: number | null = null;
  /** The last start took over a pane with a program in the foreground (top, less): no gate to wait for. */
  private takeover: TakeoverReadiness = { atOnce: false };
  private disposed = false;
  private queueTail: Promise<void> = Promise.resolve();
  /** Prompts behind a check of one in flight (takeInput): how many, and the chain they wait on. */
  private checking = 0;
  private checked: Promise<void> = Promise.resolve();
  /** CLIs this worker has launched (relaunches after an exit count too): logged with each launch. */
  private launches = 0;
  private readonly home: string;
  private readonly env: Record<string, string>;

  constructor(private readonly deps: SessionRuntimeDeps) {
    const { init } = deps;
    this.nativeSessionId = init.resume.nativeSessionId;
    this.home = init.env.HOME ?? process.env.HOME ?? homedir();
    this.env = init.env;
    this.state = initialInput(init.resume.mode);
    this.monitor = new Monitor({
      backend: deps.backend, adapter: deps.adapter, log: deps.log, send: deps.send, status: deps.status,
      cwd: init.cwd, home: this.home, env: this.env,
      onStatus: (s) => this.onStatus(s),
      onLost: (reason) => this.dispatch({ type: 'process_lost', reason }),
      onIdentity: (id, path) => this.learnIdentity(id, path),
    });
  }

  get phase(): InputState['phase'] {
    return this.state.phase;
  }

  get status(): SessionStatus {
    return this.monitor.status;
  }

  private runningListeners: (() => void)[] = [];

  /** Called each time the CLI passes the readiness gate (first start and every restart). */
  onRunning(listener: () => void): void {
    this.runningListeners.push(listener);
  }

  /** After init: a take-over (attach) looks for the live CLI now; otherwise the first message starts the CLI. */
  start(): void {
    this.deps.status.report('starting');
    if (this.deps.init.resume.mode === 'attach') this.dispatch({ type: 'take_over' });
  }

  /** Routes one daemon message (everything but init/close/display, which main and the display owner handle). */
  handle(msg: DaemonToWorker): void {
    switch (msg.type) {
      // Text never becomes keystrokes (control characters made visible), whoever sent it: see chat-text.ts.
      case 'input':
      case 'raw_input':
        return this.takeInput(msg);
      case 'selection_choice':
        if (msg.text === undefined && this.gate?.choose(msg.promptId, msg.optionIndex)) return;
        if (!this.monitor.choose(msg.promptId, msg.optionIndex, msg.text)) this.deps.send({ type: 'error', code: 'stale_selection', message: 'that prompt is no longer on screen' });
        return;
      case 'hurry':
        this.dispatch({ type: 'hurry', turnId: msg.turnId, how: msg.how });
        return;
      case 'key':
        void this.deps.backend.sendKey(msg.key).then((r) => {
          if (!r.ok) this.deps.send({ type: 'error', code: 'key_failed', message: r.message });
        });
        return;
      default:
        return;
    }
  }

  /**
   * A prompt is queued at once; one that was in flight when a host's link dropped is first checked against the CLI's
   * transcript (in-flight-input.ts), and prompts after it wait for that check, so none overtakes it.
   */
  private takeInput(msg: Extract<DaemonToWorker, { type: 'input' | 'raw_input' }>): void {
    const message: QueuedMessage = { turnId: msg.turnId, text: literalChatText(msg.text).text, ...(msg.type === 'raw_input' ? { raw: true } : {}) };
    const take = () => this.dispatch({ type: 'input', message });
    const since = msg.inFlightSince;
    this.deps.log.info({ turnId: msg.turnId, ...(since !== undefined ? { inFlightSince: since } : {}) }, 'input: received');
    if (since === undefined && this.checking === 0) return take();
    this.checking += 1;
    this.checked = this.checked
      .then(() => since === undefined ? take() : takeInFlight({
        adapter: this.deps.adapter, where: { cwd: this.deps.init.cwd, home: this.home, env: this.env }, nativeSessionId: () => this.nativeSessionId, send: this.deps.send,
        type: () => this.dispatch({ type: 'input', message: { ...message, clearFirst: true } }),
        follow: async (turnId, text, sinceMs) => {
          await this.monitor.noteSending({ turnId, text }, sinceMs);
          this.monitor.noteResult(turnId, true);
          // Nothing else may come to attach this worker: it takes the running CLI over now, so the answer comes.
          if (this.state.phase === 'idle') this.dispatch({ type: 'take_over' });
        },
      }, { turnId: message.turnId, text: message.text, raw: message.raw === true, sinceMs: since, delivered: msg.type === 'input' && msg.delivered === true }))
      .catch((err: unknown) => this.deps.log.error({ err }, 'checking a prompt in flight failed'))
      .finally(() => { this.checking -= 1; });
  }

  async close(mode: 'kill' | 'detach'): Promise<void> {
    this.dispatch({ type: 'stop' });
    this.dispose();
    if (mode === 'kill') await this.deps.backend.kill();
    else await this.deps.backend.detach();
  }

  dispose(): void {
    this.disposed = true;
    this.gate?.dispose();
    this.monitor.dispose();
  }

  private onStatus(status: SessionStatus): void {
    const busy = isBusyStatus(status);
    if (busy !== this.state.cliBusy && (this.state.phase === 'running' || this.state.phase === 'sending')) this.dispatch({ type: 'cli_busy', busy });
  }

  /** What the daemon was last told (a chosen id is reported at launch, its transcript path once found). */
  private reportedIdentity: { id: string; path?: string } | null = null;

  private learnIdentity(id: string, transcriptPath?: string): void {
    this.nativeSessionId = id;
    const known = this.reportedIdentity;
    if (known?.id === id && (!transcriptPath || known.path === transcriptPath)) return;
    this.reportedIdentity = { id, path: transcriptPath ?? (known?.id === id ? known.path : undefined) };
    this.deps.send({ type: 'cli_identity', nativeSessionId: id, ...(transcriptPath ? { transcriptPath } : {}) });
  }

  private dispatch(event: InputEvent): void {
    if (this.disposed && event.type !== 'stop') return;
    // Without a transcript a turn ends when the screen goes idle, so typed-ahead text would blur two turns' output.
    const a = this.deps.adapter;
    const steers = a.id !== 'custom' && CLI_STEERS[a.id] && a.transcript !== null;
    const step = inputStep(this.state, event, { typeAheadWhileBusy: a.submit.typeAheadWhileBusy && a.transcript !== null, steerWhileBusy: steers });
    this.state = step.state;
    for (const e of step.effects) this.execute(e);
  }

  private execute(e: InputEffect): void {
    const log = this.deps.log;
    switch (e.type) {
      case 'log':
        log.info({ from: e.from, to: e.to, reason: e.reason }, 'input machine: transition');
        return;
      case 'report':
        this.deps.send(e.msg);
        return;
      case 'check_tmux':
        void this.deps.backend.probe().then((p) => this.dispatch(p.state === 'unknown' ? { type: 'tmux_checked', ok: false, reason: p.reason } : { type: 'tmux_checked', ok: true }));
        return;
      case 'check_session':
        void this.deps.backend.probe().then((p) => this.dispatch({ type: 'session_checked', session: sessionCheckOf(p) }));
        return;
      case 'end_exiting_cli':
        void endExitingCli(this.deps.backend, this.deps.log).then((session) => this.dispatch({ type: 'session_checked', session }));
        return;
      case 'prepare_session':
        void this.trustFolder().then(() => this.prepare(e.mode));
        return;
      case 'start_tmux':
      case 'attach_tmux':
        void this.startTmux(e.type === 'start_tmux');
        return;
      case 'run_gate':
        void this.runGate();
        return;
      case 'deliver':
        this.queueTail = this.queueTail.then(() => this.deliverOne(e.message));
        return;
      case 'interrupt':
        // In line with deliveries: the key never lands in the middle of a message being typed.
        this.queueTail = this.queueTail
          .then(() => interruptTurn(this.deps.backend, this.deps.adapter))
          .then((ok) => {
            if (!ok) log.warn('interrupt for a waiting message: the CLI did not stop or its input box could not be cleared');
          }, (err: unknown) => log.error({ err }, 'interrupt for a waiting message failed'))
          .then(() => this.dispatch({ type: 'interrupt_done' }));
        return;
    }
  }

  private pendingLaunch: { argv: string[]; env: Record<string, string> } | null = null;
  /** How the pending launch starts the CLI, told to the daemon once the pane exists (its card says so). */
  private pendingStart: { how: 'new' | 'resumed'; freshReason?: string; freshCode?: 'cannot_resume' | 'no_native_id' } = { how: 'new' };

  /**
   * With startup dialogs answered automatically, the folder's trust is written before launch where the adapter can
   * (its answer would be "trust"): no late trust dialog races the first prompt, and Gemini does not exit to apply it.
   * A failure only means the dialog comes and the gate answers it.
   */
  private async trustFolder(): Promise<void> {
    const a = this.deps.adapter;
    if (!a.trustFiles || this.deps.init.startupDialogs === 'ask') return;
    const files = a.trustFiles({ cwd: this.deps.init.cwd, home: this.home, env: this.env });
    const r = await applySeedFiles(files);
    if (!r.ok) this.deps.log.warn({ err: r.message }, 'could not record the folder as trusted; the CLI will ask and the gate answers');
  }

  private prepare(mode: 'new' | 'resume'): void {
    const a = this.deps.adapter;
    let launchMode: 'new' | 'resume' = mode;
    if (mode === 'resume' && !this.nativeSessionId) launchMode = 'new';
    this.pendingStart =
      launchMode === 'resume'
        ? { how: 'resumed' }
        : mode === 'resume' || this.deps.init.resume.mode !== 'new'
          ? a.nativeId.kind === 'none'
            ? { how: 'new', freshReason: `${a.displayName} cannot resume a conversation`, freshCode: 'cannot_resume' }
            : { how: 'new', freshReason: 'no earlier conversation id was recorded', freshCode: 'no_native_id' }
          : { how: 'new' };
    if (launchMode === 'new' && a.nativeId.kind === 'chosen') this.nativeSessionId = randomUUID();
    if (launchMode === 'new' && a.nativeId.kind === 'discovered') this.nativeSessionId = undefined;
    const spec = a.launch({
      cwd: this.deps.init.cwd, home: this.home, mode: launchMode, nativeSessionId: this.nativeSessionId, botEnv: this.env,
      paneHint: paneHint(),
    });
    const [program, ...args] = spec.argv;
    if (program !== undefined) spec.argv = [resolveProgram(program, spec.env.PATH ?? this.env.PATH ?? process.env.PATH), ...args];
    if (!isFolder(this.deps.init.cwd)) {
      // tmux would start the CLI in its own folder instead, while the card shows this path: refuse and say so.
      this.deps.log.warn({ cwd: this.deps.init.cwd }, 'working folder does not exist');
      this.dispatch({ type: 'session_prepared', ok: false, code: 'cwd_missing', reason: `the folder ${this.deps.init.cwd} does not exist` });
      return;
    }
    const resolved = spec.argv[0];
    if (resolved !== undefined && (!resolved.includes('/') || (isAbsolute(resolved) && !existsSync(resolved)))) {
      // Not on PATH: launching would only show tmux's "Pane is dead (status 1)"; the daemon turns this code into the install command.
      this.deps.log.warn({ program: resolved }, 'CLI program not found on PATH');
      this.dispatch({ type: 'session_prepared', ok: false, code: 'cli_missing', reason: `${resolved} is not installed (not found on PATH)` });
      return;
    }
    this.pendingLaunch = spec;
    this.deps.log.info({ mode: launchMode, program: spec.argv[0], nativeSessionId: this.nativeSessionId }, 'launch prepared');
    if (launchMode === 'new' && a.nativeId.kind === 'chosen' && this.nativeSessionId) this.learnIdentity(this.nativeSessionId);
    this.dispatch({ type: 'session_prepared', ok: true });
  }

  /** `larkmux` in the pane is this installation bound to this home (the daemon wrote it); LARKMUX_HOME stays out. */
  private paneEnv(launchEnv: Readonly<Record<string, string>>): Record<string, string> {
    const paths = larkmuxPaths(this.deps.init.home);
    return paneCommandEnv(paths.paneBin, paths.paneCommand, launchEnv.PATH ?? this.env.PATH ?? process.env.PATH);
  }

  private async startTmux(create: boolean): Promise<void> {
    const { init } = this.deps;
    const launch = create && this.pendingLaunch
      ? { argv: this.pendingLaunch.argv, env: this.pendingLaunch.env, larkmuxEnv: this.paneEnv(this.pendingLaunch.env), cwd: init.cwd, cols: init.cols, rows: init.rows }
      : undefined;
    if (create) {
      this.launches += 1;
      this.launchedAt = Date.now();
    }
    const r = await this.deps.backend.start(launch);
    this.cliRunningForMs = r.ok && !r.value.created ? (r.value.runningForMs ?? null) : null;
    this.takeover = r.ok && !r.value.created ? takeoverReadiness(this.deps.adapter.hostsPrograms === true, r.value.foreground ?? null) : { atOnce: false };
    for (const w of r.ok ? r.value.warnings : []) this.deps.log.warn(w);
    if (r.ok && r.value.created) this.deps.log.info({ name: r.value.name, launches: this.launches }, 'CLI launched');
    if (r.ok) {
      const how = r.value.created ? this.pendingStart.how : 'attached';
      const { freshReason, freshCode } = r.value.created ? this.pendingStart : {};
      this.deps.send({ type: 'cli_started', how, ...(freshReason ? { freshReason } : {}), ...(freshCode ? { freshCode } : {}) });
    }
    this.dispatch(r.ok ? { type: 'tmux_started', ok: true, created: r.value.created } : { type: 'tmux_started', ok: false, created: false, reason: r.message });
  }

  private async runGate(): Promise<void> {
    const res = this.takeover.atOnce ? this.readyAtOnce(this.takeover.reason) : await this.runGateRunner();
    if (this.disposed) return;
    if (res.outcome === 'ready') {
      await this.monitor.start(this.nativeSessionId, this.launchedAt);
      for (const l of this.runningListeners) l();
    }
    this.dispatch({ type: 'gate_done', outcome: res.outcome, reason: res.reason });
  }

  private async runGateRunner(): Promise<GateOutcome> {
    this.gate = new GateRunner({
      backend: this.deps.backend, adapter: this.deps.adapter, log: this.deps.log, send: this.deps.send, status: this.deps.status, startupDialogs: this.deps.init.startupDialogs,
      timing: gateTimingFor(this.cliRunningForMs, this.deps.adapter.lateStartupDialogs),
    });
    try {
      return await this.gate.run();
    } finally {
      this.gate = null;
    }
  }

  /** The pane's foreground program takes keys now, as it would from the person: the status follows its output. */
  private readyAtOnce(reason: string): GateOutcome {
    this.deps.log.info({ cli: this.deps.adapter.id, reason }, 'readiness gate: not needed');
    return { outcome: 'ready', reason };
  }

  private async deliverOne(message: QueuedMessage): Promise<void> {
    if (this.disposed) return;
    const res = await deliver({
      backend: this.deps.backend,
      adapter: this.deps.adapter,
      log: this.deps.log,
      userTurnsSeen: () => this.monitor.userTurnsSeen,
      userTurnTextsSince: (from) => this.monitor.userTurnTextsSince(from),
      pollTranscript: () => this.monitor.pollTranscript(),
      beforeSend: (m) => this.monitor.noteSending(m),
    }, message);
    if (res.result === 'delivered') {
      this.monitor.noteResult(message.turnId, true);
      this.deps.send({ type: 'input_delivered', turnId: message.turnId, evidence: res.evidence, enterRetries: res.enterRetries });
      this.deps.log.info({ turnId: message.turnId, evidence: res.evidence, enterRetries: res.enterRetries }, 'input delivered');
    } else {
      this.monitor.noteResult(message.turnId, false);
      if (res.result === 'failed') this.deps.send({ type: 'input_failed', turnId: message.turnId, reason: res.reason, failure: res.failure });
      this.deps.log.warn({ turnId: message.turnId, result: res.result, reason: res.reason }, 'input not delivered');
      if (res.result === 'lost') await this.monitor.reportLost(res.reason);
    }
    this.dispatch({ type: 'send_done', turnId: message.turnId, result: res.result, reason: res.result === 'delivered' ? undefined : res.reason });
    // A turn that already ended while its delivery was being proven leaves the CLI idle: the next message goes now,
    // not at the next status tick (send_done assumed the CLI busy with the message).
    if (res.result === 'delivered') this.onStatus(this.monitor.status);
  }
}
