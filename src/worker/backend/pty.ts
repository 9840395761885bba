// PtyBackend: the fallback when tmux is absent — the CLI runs on a node-pty owned by the worker and dies with it.
import xh from '@xterm/headless';
import * as nodePty from '@lydell/node-pty';
import { keyBytes, type KeyName } from '../../shared/keys.js';
import { planTextInput } from './input-plan.js';
import { cliBaseEnv } from '../../shared/env-policy.js';
import { filterLaunchEnv } from './launch-env.js';
import type {
  BackendResult, CaptureOptions, Disposable, LaunchSpec, ObserverClosed, ProbeResult, SendTextOptions, SessionBackend, StartInfo,
} from './types.js';
import { fail, listenOn, OK } from './types.js';
import { Utf8Stream } from './utf8-stream.js';

const { Terminal } = xh;
type HeadlessTerminal = InstanceType<typeof Terminal>;

export const PTY_BACKEND_LIMITS = {
  /** Same reasoning as TMUX_BACKEND_TIMING.launchGraceMs: a CLI that dies this fast failed to start. */
  launchGraceMs: 500,
  /** Scrollback kept by the mirror terminal that answers capture(). */
  scrollback: 2_000,
  /** Lines of output put in a launch error. */
  diagTailLines: 30,
  /** How long kill() waits for the child to exit after SIGHUP before SIGKILL. */
  killGraceMs: 2_000,
} as const;

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

export class PtyBackend implements SessionBackend {
  readonly kind = 'pty' as const;
  readonly name: string;
  private child: nodePty.IPty | null = null;
  private exited: Promise<void> = Promise.resolve();
  private term: HeadlessTerminal | null = null;
  private observing = false;
  private readonly decoder = new Utf8Stream();
  private readonly outputListeners = new Set<(text: string) => void>();
  private readonly closedListeners = new Set<(closed: ObserverClosed) => void>();

  constructor(options: { sessionId: string }) {
    this.name = `pty-${options.sessionId.slice(0, 8)}`;
  }

  async start(launch?: LaunchSpec): Promise<BackendResult<StartInfo>> {
    if (this.child) {
      this.observing = true;
      return { ok: true, value: { name: this.name, created: false, warnings: [] } };
    }
    if (!launch) return fail('missing', `${this.name} has no running CLI (a pty session does not survive a restart)`);
    const [program, ...args] = launch.argv;
    if (program === undefined) throw new Error('LaunchSpec.argv is empty');
    const { env, warnings } = filterLaunchEnv(launch.env);
    // The policy's base (never larkmux's own variables, nor TMUX/TMUX_PANE), then exactly the bot's env and the pane's `larkmux`.
    const baseEnv = cliBaseEnv(process.env);
    let child: nodePty.IPty;
    try {
      child = nodePty.spawn(program, args, {
        name: 'xterm-256color', cols: launch.cols, rows: launch.rows, cwd: launch.cwd,
        env: { ...baseEnv, ...env, ...launch.larkmuxEnv }, encoding: null,
      });
    } catch (err) {
      return fail('launch_failed', `cannot start ${program}: ${(err as Error).message}`);
    }
    this.term?.dispose();
    const term = new Terminal({ cols: launch.cols, rows: launch.rows, scrollback: PTY_BACKEND_LIMITS.scrollback, allowProposedApi: true });
    this.term = term;
    this.child = child;
    this.observing = true;
    let exitCode: number | null = null;
    this.exited = new Promise((resolve) => {
      child.onExit(({ exitCode: code }) => {
        exitCode = code;
        if (this.child === child) this.child = null;
        const rest = this.decoder.end();
        if (rest) this.emit(rest);
        for (const l of this.closedListeners) l({ reason: 'pipe_closed', message: `the CLI exited (code ${code})` });
        resolve();
      });
    });
    // With encoding null node-pty hands out Buffers (its typings say string).
    child.onData((data: string | Buffer) => this.emit(typeof data === 'string' ? data : this.decoder.write(data)));
    const early = await settlesWithin(this.exited, PTY_BACKEND_LIMITS.launchGraceMs);
    if (early) {
      const tail = await this.capture({ historyLines: PTY_BACKEND_LIMITS.diagTailLines * 4 });
      const last = tail.ok ? tail.value.replace(/\s+$/, '').split('\n').slice(-PTY_BACKEND_LIMITS.diagTailLines).join('\n') : '';
      return fail('launch_exited', `the CLI exited right after launch (code ${exitCode ?? '?'}): ${program}\nlast output:\n${last}`);
    }
    return { ok: true, value: { name: this.name, created: true, warnings } };
  }

  onOutput(listener: (text: string) => void): Disposable {
    return listenOn(this.outputListeners, listener);
  }

  onObserverClosed(listener: (closed: ObserverClosed) => void): Disposable {
    return listenOn(this.closedListeners, listener);
  }

  /** Stops reading the pty; the kernel buffer fills and the CLI blocks on write, which costs no memory. */
  pauseOutput(): void { this.child?.pause(); }
  resumeOutput(): void { this.child?.resume(); }

  /** The mirror terminal's screen; escapes are not available here (render from the mirror instead). */
  async capture(options: CaptureOptions = {}): Promise<BackendResult<string>> {
    const term = this.term;
    if (!term) return fail('missing', `${this.name} has no terminal`);
    if (options.escapes) return fail('command_failed', 'the pty backend captures plain text only');
    await new Promise<void>((resolve) => term.write('', resolve));
    const buf = term.buffer.active;
    const from = Math.max(0, buf.baseY - (options.historyLines ?? 0));
    const lines: string[] = [];
    for (let y = from; y < buf.baseY + term.rows; y++) lines.push(buf.getLine(y)?.translateToString(true) ?? '');
    return { ok: true, value: lines.join('\n') };
  }

  async sendText(text: string, options: SendTextOptions = {}): Promise<BackendResult> {
    const child = this.child;
    if (!child) return fail('missing', `${this.name} has no running CLI`);
    const plan = planTextInput(text, options.paste ? { maxTypedBytes: 0 } : undefined);
    if (plan.method === 'none') return OK;
    if (plan.method === 'type') child.write(plan.text);
    else {
      // As tmux's paste-buffer does: LF becomes CR, and markers only when the app enabled bracketed paste.
      const body = plan.text.replace(/\n/g, '\r');
      child.write(this.term?.modes.bracketedPasteMode ? `${PASTE_START}${body}${PASTE_END}` : body);
    }
    return OK;
  }

  async sendKey(key: KeyName): Promise<BackendResult> {
    if (!this.child) return fail('missing', `${this.name} has no running CLI`);
    this.child.write(keyBytes(key));
    return OK;
  }

  async resize(cols: number, rows: number): Promise<BackendResult> {
    if (!this.child) return fail('missing', `${this.name} has no running CLI`);
    this.child.resize(cols, rows);
    this.term?.resize(cols, rows);
    return OK;
  }

  async probe(): Promise<ProbeResult> {
    return this.child ? { state: 'exists', panePid: this.child.pid, paneDead: false, exitStatus: null } : { state: 'missing' };
  }

  async kill(): Promise<BackendResult> {
    const child = this.child;
    if (!child) return OK;
    child.kill('SIGHUP');
    const exited = await settlesWithin(this.exited, PTY_BACKEND_LIMITS.killGraceMs);
    if (!exited) {
      child.kill('SIGKILL');
      await this.exited;
    }
    return OK;
  }

  /** Stops delivering output; the CLI runs on until dispose() (it cannot outlive this process anyway). */
  async detach(): Promise<void> {
    this.observing = false;
  }

  async dispose(): Promise<void> {
    await this.kill();
    this.term?.dispose();
    this.term = null;
    this.outputListeners.clear();
    this.closedListeners.clear();
  }

  private emit(text: string): void {
    if (text.length === 0) return;
    this.term?.write(text);
    if (!this.observing) return;
    for (const l of this.outputListeners) l(text);
  }
}

/** true if `p` settles within `ms`; the timer is cleared either way. */
function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void p.then(() => { clearTimeout(timer); resolve(true); });
  });
}
