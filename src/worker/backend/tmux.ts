// TmuxBackend: the CLI runs in tmux session `lmx-<id8>` that outlives the worker; the worker observes and types.
import { randomBytes } from 'node:crypto';
import { larkmuxPaths } from '../../platform/paths.js';
import { tmuxDiagName, tmuxSessionName } from '../../shared/session-key.js';
import { tmuxKeyName, type KeyName } from '../../shared/keys.js';
import { ENV_POLICY, namesToUnset } from '../../shared/env-policy.js';
import { filterLaunchEnv } from './launch-env.js';
import { discardLaunchFile, launcherArgv, launchScript, splitByShellName, writeLaunchFile } from './launch-file.js';
import { planTextInput } from './input-plan.js';
import type { TmuxResult } from '../../platform/tmux-runner.js';
import { escapeTmuxFormat, TmuxClient } from './tmux-client.js';
import { PipePaneObserver, type PaneObserver } from './tmux-observer.js';
import { serverOptionCommands } from './tmux-server-options.js';
import { paneDiedHookCommand, watchPaneDeath } from './pane-death.js';
import { zombieExitStatus } from '../../platform/proc-stat.js';
import type {
  BackendResult, CaptureOptions, Disposable, LaunchSpec, ObserverClosed, ProbeResult, SendTextOptions, SessionBackend, StartInfo,
} from './types.js';
import { fail, listenOn, OK } from './types.js';
import type { PaneForeground } from '../lifecycle/takeover-ready.js';

export const TMUX_BACKEND_TIMING = {
  /**
   * After new-session, the pane is watched this long for a CLI that exits at once (bad flag, missing binary, no
   * API key). Real CLIs take seconds to draw anything, so half a second costs nothing a user notices.
   */
  launchGraceMs: 500,
  launchPollMs: 100,
  /** Lines of the dead pane's output put in the launch error. */
  diagTailLines: 30,
} as const;

export interface TmuxBackendOptions {
  sessionId: string;
  /** LARKMUX_HOME: FIFOs go in its run/ directory. */
  home: string;
  /** `tmux -L <socket>`; null = the user's default server. Ignored when `client` is given. */
  socket?: string | null;
  client?: TmuxClient;
  /** See OBSERVER_LIMITS.stallTimeoutMs. */
  stallTimeoutMs?: number;
  timing?: Partial<typeof TMUX_BACKEND_TIMING>;
}

export class TmuxBackend implements SessionBackend {
  readonly kind = 'tmux' as const;
  readonly name: string;
  readonly diagName: string;
  private readonly client: TmuxClient;
  private readonly observer: PaneObserver;
  private readonly timing: typeof TMUX_BACKEND_TIMING;
  private readonly outputListeners = new Set<(text: string) => void>();
  private readonly closedListeners = new Set<(closed: ObserverClosed) => void>();
  private readonly subscriptions: Disposable[] = [];
  private readonly runDir: string;
  /** Where the pane-died hook drops its marker (see pane-death.ts). */
  private readonly deathMarker: string;
  private deathWatch: Promise<Disposable> | null = null;

  constructor(options: TmuxBackendOptions) {
    this.name = tmuxSessionName(options.sessionId);
    this.diagName = tmuxDiagName(options.sessionId);
    this.client = options.client ?? new TmuxClient({ socket: options.socket ?? null });
    this.runDir = larkmuxPaths(options.home).run;
    this.timing = { ...TMUX_BACKEND_TIMING, ...options.timing };
    const fifoPath = larkmuxPaths(options.home).fifo(options.sessionId);
    this.deathMarker = fifoPath.replace(/\.fifo$/, '') + '.died';
    this.observer = new PipePaneObserver({ client: this.client, target: this.paneTarget, fifoPath, stallTimeoutMs: options.stallTimeoutMs });
    this.subscriptions.push(
      this.observer.onText((text) => { for (const l of this.outputListeners) l(text); }),
      this.observer.onClosed((closed) => { for (const l of this.closedListeners) l(closed); }),
    );
  }

  /** `=` makes tmux match the name exactly instead of as a prefix or pattern. */
  private get sessionTarget(): string { return `=${this.name}`; }
  private get paneTarget(): string { return `=${this.name}:`; }

  async start(launch?: LaunchSpec): Promise<BackendResult<StartInfo>> {
    const probe = await this.probe();
    if (probe.state === 'unknown') return fail('tmux_unavailable', `cannot reach tmux: ${probe.reason}`);
    if (probe.state === 'exists' && !probe.paneDead) {
      await this.watchDeath();
      const attached = await this.observer.attach();
      if (!attached.ok) return attached;
      await this.hookDeath();
      const { runningForMs, foreground } = await this.attachedPane();
      return { ok: true, value: { name: this.name, created: false, warnings: [], ...(runningForMs !== null ? { runningForMs } : {}), ...(foreground ? { foreground } : {}) } };
    }
    if (!launch) {
      return probe.state === 'missing'
        ? fail('missing', `tmux session ${this.name} does not exist`)
        : fail('missing', `the CLI in ${this.name} has exited (status ${probe.exitStatus ?? '?'})`);
    }
    // A CLI that exited earlier left its pane (remain-on-exit): keep it for inspection, out of the live name.
    if (probe.state === 'exists') await this.moveToDiag();
    await this.watchDeath();
    const created = await this.create(launch);
    if (!created.ok) return created;
    await this.hookDeath();
    const watched = await this.watchLaunch(launch);
    if (!watched.ok) return watched;
    return { ok: true, value: { name: this.name, created: true, warnings: created.value } };
  }

  onOutput(listener: (text: string) => void): Disposable {
    return listenOn(this.outputListeners, listener);
  }

  onObserverClosed(listener: (closed: ObserverClosed) => void): Disposable {
    return listenOn(this.closedListeners, listener);
  }

  /** Consumer backpressure, passed to the observer (which closes the pipe if the pause lasts too long). */
  pauseOutput(): void { this.observer.pause(); }
  resumeOutput(): void { this.observer.resume(); }

  async capture(options: CaptureOptions = {}): Promise<BackendResult<string>> {
    const args = ['capture-pane', '-p', '-t', this.paneTarget];
    if (options.escapes) args.push('-e');
    if (options.join) args.push('-J');
    if (options.historyLines && options.historyLines > 0) args.push('-S', String(-options.historyLines));
    const res = await this.client.run(args);
    if (!res.ok) return this.failFrom(res, 'capture-pane');
    return { ok: true, value: res.stdout.endsWith('\n') ? res.stdout.slice(0, -1) : res.stdout };
  }

  async sendText(text: string, options: SendTextOptions = {}): Promise<BackendResult> {
    const plan = planTextInput(text, options.paste ? { maxTypedBytes: 0 } : undefined);
    if (plan.method === 'none') return OK;
    if (plan.method === 'type') {
      // -l: every character literally (no key names); `--` so a leading `-` is text, not a flag.
      return this.check(await this.client.run(['send-keys', '-t', this.paneTarget, '-l', '--', plan.text]), 'send-keys');
    }
    const buffer = `lmx-in-${randomBytes(6).toString('hex')}`;
    const loaded = await this.client.run(['load-buffer', '-b', buffer, '-'], { input: plan.text });
    if (!loaded.ok) return this.failFrom(loaded, 'load-buffer');
    // -p: bracketed paste when the app asked for it (mode 2004), so the lines are one submission; -d deletes the buffer.
    const pasted = await this.client.run(['paste-buffer', '-p', '-d', '-b', buffer, '-t', this.paneTarget]);
    if (!pasted.ok) await this.client.run(['delete-buffer', '-b', buffer]);
    return this.check(pasted, 'paste-buffer');
  }

  async sendKey(key: KeyName): Promise<BackendResult> {
    return this.check(await this.client.run(['send-keys', '-t', this.paneTarget, tmuxKeyName(key)]), 'send-keys');
  }

  async resize(cols: number, rows: number): Promise<BackendResult> {
    return this.check(await this.client.run(['resize-window', '-t', this.paneTarget, '-x', String(cols), '-y', String(rows)]), 'resize-window');
  }

  /**
   * How long ago tmux created the session (whole seconds), i.e. how long its CLI has run (null when tmux won't say),
   * and the pane's foreground: alternate screen on, and the foreground process's name (last: it may hold spaces).
   */
  private async attachedPane(): Promise<{ runningForMs: number | null; foreground: PaneForeground | null }> {
    const res = await this.client.run(['list-panes', '-t', this.paneTarget, '-F', '#{session_created} #{alternate_on} #{pane_current_command}']);
    if (!res.ok) return { runningForMs: null, foreground: null };
    const [createdText = '', alternate = '', ...command] = (res.stdout.split('\n')[0] ?? '').split(' ');
    const created = Number(createdText.trim());
    const runningForMs = Number.isInteger(created) && created > 0 ? Math.max(0, Date.now() - created * 1000) : null;
    const foreground = alternate === '0' || alternate === '1' ? { alternateScreen: alternate === '1', command: command.join(' ').trim() } : null;
    return { runningForMs, foreground };
  }

  async probe(): Promise<ProbeResult> {
    // list-panes, not display-message: tmux 3.3a's display-message prints an empty line for a missing target.
    const res = await this.client.run(['list-panes', '-t', this.paneTarget, '-F', '#{pane_pid} #{pane_dead} #{pane_dead_status}']);
    if (!res.ok) {
      if (res.code === 'not_found' || res.code === 'no_server') return { state: 'missing' };
      return { state: 'unknown', reason: res.message };
    }
    const [pid, dead, status] = (res.stdout.split('\n')[0] ?? '').split(' ');
    const toInt = (s: string | undefined): number | null => (s && /^\d+$/.test(s) ? Number(s) : null);
    const panePid = toInt(pid);
    const paneDead = dead === '1';
    // tmux 3.3a under load: the pane is dead but its child was never reaped, so tmux has no status; the zombie has it.
    const exitStatus = toInt(status) ?? (paneDead && panePid !== null ? zombieExitStatus(panePid) : null);
    return { state: 'exists', panePid, paneDead, exitStatus };
  }

  async kill(): Promise<BackendResult> {
    await this.observer.detach();
    await this.unwatchDeath();
    const res = await this.client.run(['kill-session', '-t', this.sessionTarget]);
    if (!res.ok && (res.code === 'not_found' || res.code === 'no_server')) return OK;
    return this.check(res, 'kill-session');
  }

  async detach(): Promise<void> {
    await this.observer.detach();
    await this.unwatchDeath();
  }

  async dispose(): Promise<void> {
    await this.observer.dispose();
    await this.unwatchDeath();
    for (const s of this.subscriptions) s.dispose();
    this.outputListeners.clear();
    this.closedListeners.clear();
  }

  /** Starts watching for the pane-died marker (once); its event reaches onObserverClosed as `pane_died`. */
  private watchDeath(): Promise<Disposable> {
    this.deathWatch ??= watchPaneDeath(this.deathMarker, () => {
      const closed: ObserverClosed = { reason: 'pane_died', message: 'the CLI in the pane exited (tmux pane-died hook)' };
      for (const l of this.closedListeners) l(closed);
    });
    return this.deathWatch;
  }

  /**
   * Sets the pane-died hook (again: a session started by an older worker may lack it; set-hook replaces). Not part of
   * the launch chain: a tmux without pane hooks (< 3.1) must not fail the launch; the monitor's safety probe remains.
   */
  private async hookDeath(): Promise<void> {
    await this.client.run(paneDiedHookCommand(this.paneTarget, this.deathMarker));
  }

  private async unwatchDeath(): Promise<void> {
    const w = this.deathWatch;
    this.deathWatch = null;
    if (w) (await w).dispose();
  }

  /** new-session from an argv, observed from its first byte. Returns the env warnings. */
  private async create(launch: LaunchSpec): Promise<BackendResult<string[]>> {
    const filtered = filterLaunchEnv(launch.env);
    const warnings = filtered.warnings;
    // larkmux's own variables (the pane's `larkmux` command) pass the bot-env filter by design.
    const { shell: env, exported } = splitByShellName({ ...filtered.env, ...launch.larkmuxEnv });
    if (launch.argv.length === 0) throw new Error('LaunchSpec.argv is empty');
    // The env goes through a 0600 file, never the command line (see launch-file.ts). A server someone else started
    // may hold anything in its global environment: what is neither inherited nor the bot's is unset first, and what
    // tmux itself sets for the pane (TMUX, TMUX_PANE: larkmux's private server and pane) never reaches the CLI.
    const serverEnv = await this.client.run(['show-environment', '-g']);
    const unset = [...new Set([...ENV_POLICY.reservedNames, ...namesToUnset(serverEnv.ok ? serverEnv.stdout : '', env)])];
    const file = await writeLaunchFile(this.runDir, this.name, launchScript(env, unset));
    // The launcher argv has several arguments, so tmux execvp()s it (one argument would go through default-shell -c).
    const argv = launcherArgv(file, launch.argv, exported);
    const pipe = await this.observer.openReader();
    if (!pipe.ok) {
      await discardLaunchFile(file);
      return pipe;
    }
    const newSession = [
      'new-session', '-d', '-s', this.name, '-x', String(launch.cols), '-y', String(launch.rows),
      '-c', escapeTmuxFormat(launch.cwd),
      '--', ...argv,
    ];
    // One invocation: tmux runs the whole chain before it reaps any child, so remain-on-exit is on before an
    // instant exit could destroy the pane, and the pipe is in place before the CLI's first output is processed.
    // window-size manual: an attaching web client must not resize the pane. The server options (tmux-server-options.ts)
    // come in the same chain, so they are set before the CLI can ask for them.
    const res = await this.client.runChain([
      newSession,
      ...serverOptionCommands(),
      ['set-option', '-w', '-t', this.paneTarget, 'remain-on-exit', 'on'],
      ['set-option', '-w', '-t', this.paneTarget, 'window-size', 'manual'],
      pipe.value,
    ]);
    if (!res.ok) {
      await discardLaunchFile(file);
      await this.observer.confirmPipe(res);
      if (res.code === 'tmux_missing' || res.code === 'timeout') return fail('tmux_unavailable', res.message);
      await this.client.run(['kill-session', '-t', this.sessionTarget]);
      return fail('launch_failed', `tmux could not start the CLI: ${res.message}`);
    }
    return { ok: true, value: warnings };
  }

  /** Watches a new pane briefly: a CLI that exits at once is moved to the diagnostic name and reported. */
  private async watchLaunch(launch: LaunchSpec): Promise<BackendResult> {
    const deadline = Date.now() + this.timing.launchGraceMs;
    while (Date.now() < deadline) {
      await sleep(this.timing.launchPollMs);
      let p = await this.probe();
      if (p.state === 'exists' && !p.paneDead) continue;
      // tmux may notice the pty closing before it reaps the child; the exit status follows a moment later.
      if (p.state === 'exists' && p.exitStatus === null) { await sleep(this.timing.launchPollMs); p = await this.probe(); }
      await this.observer.detach();
      const tail = await this.capture({ historyLines: this.timing.diagTailLines * 4 });
      const lastOutput = tail.ok ? lastLines(tail.value, this.timing.diagTailLines) : '(no output captured)';
      const status = p.state === 'exists' ? `status ${p.exitStatus ?? '?'}` : 'its session vanished';
      const kept = p.state === 'exists' ? await this.moveToDiag() : false;
      return fail('launch_exited', [
        // Only the program name: arguments may carry tokens.
        `the CLI exited right after launch (${status}): ${launch.argv[0]}`,
        kept ? `its pane is kept as tmux session ${this.diagName} for inspection` : 'no pane was left to inspect',
        `last output:\n${lastOutput}`,
      ].join('\n'));
    }
    return OK;
  }

  /** Renames the live session to the diagnostic name, replacing an older diagnostic session. */
  private async moveToDiag(): Promise<boolean> {
    await this.client.run(['kill-session', '-t', `=${this.diagName}`]);
    const res = await this.client.run(['rename-session', '-t', this.sessionTarget, this.diagName]);
    if (!res.ok) await this.client.run(['kill-session', '-t', this.sessionTarget]);
    return res.ok;
  }

  private check(res: TmuxResult, what: string): BackendResult {
    return res.ok ? OK : this.failFrom(res, what);
  }

  private failFrom(res: Extract<TmuxResult, { ok: false }>, what: string): Failure {
    if (res.code === 'not_found' || res.code === 'no_server') return fail('missing', `${what}: tmux session ${this.name} does not exist`);
    if (res.code === 'tmux_missing' || res.code === 'timeout') return fail('tmux_unavailable', `${what}: ${res.message}`);
    return fail('command_failed', `${what}: ${res.message}`);
  }
}

type Failure = Extract<BackendResult, { ok: false }>;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The last n non-blank lines: a dead pane is mostly empty rows between the CLI's words and tmux's notice. */
function lastLines(text: string, n: number): string {
  return text.split('\n').filter((l) => l.trim() !== '').slice(-n).join('\n');
}
