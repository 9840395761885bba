// The few tmux commands the web terminal needs: pin the window size, read the client size, scroll, and the attach argv.
import { execFile } from 'node:child_process';
import { tmuxClientEnv as policyTmuxEnv } from '../../shared/env-policy.js';
import type { WindowSize } from './reflow.js';
import { PANE_SCROLL_FORMAT, parsePaneScrollState, planWheel, type WheelInput } from './wheel.js';

export const TMUX_PANE_LIMITS = {
  /** A tmux command answers in milliseconds; 5 s means the server is stuck, not slow. */
  commandTimeoutMs: 5_000,
} as const;

export type TmuxOutcome = { ok: true; stdout: string } | { ok: false; code: 'tmux_error'; message: string };

/** Runs `tmux <args>` against the right server; injected so tests can watch what is run. */
export type TmuxRunner = (args: readonly string[]) => Promise<TmuxOutcome>;

export function socketArgs(socket: string | null): string[] {
  return socket === null ? [] : ['-L', socket];
}

/** The environment of a tmux client the worker starts: outside any tmux, as an xterm-256color terminal. */
export function tmuxClientEnv(base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return policyTmuxEnv(base, { term: 'xterm-256color' });
}

export function execTmuxRunner(socket: string | null): TmuxRunner {
  return (args) =>
    new Promise((resolve) => {
      execFile('tmux', [...socketArgs(socket), ...args], { timeout: TMUX_PANE_LIMITS.commandTimeoutMs, env: tmuxClientEnv() }, (err, stdout, stderr) => {
        if (err) resolve({ ok: false, code: 'tmux_error', message: (stderr || err.message).trim().slice(0, 300) });
        else resolve({ ok: true, stdout });
      });
    });
}

export interface ClientSize {
  cols: number;
  rows: number;
}

/** Rows the status line takes: the `status` option is off, on, or 2–5. */
export function statusLines(status: string): number {
  if (status === 'off') return 0;
  if (status === 'on') return 1;
  const n = Number(status);
  return Number.isInteger(n) && n >= 0 && n <= 5 ? n : 1;
}

/**
 * The argv of one browser's tmux client. `-T RGB` tells tmux this client does truecolor (without it tmux reduces
 * 24-bit colour to 256); it is per client, so the user's own server options are left alone. `-u` because the page
 * always speaks UTF-8. `ignore-size` so a browser never counts in sizing the window.
 */
export function attachArgs(socket: string | null, target: string, readOnly: boolean): string[] {
  const flags = readOnly ? 'ignore-size,read-only' : 'ignore-size';
  return [...socketArgs(socket), '-u', '-T', 'RGB', 'attach-session', '-f', flags, '-t', target];
}

export class TmuxPaneControl {
  constructor(
    private readonly run: TmuxRunner,
    readonly target: string,
  ) {}

  /** `window-size manual`: the window keeps the size larkmux gave it, whatever size the clients are (phones too). */
  async pinWindowSize(): Promise<TmuxOutcome> {
    return this.run(['set-option', '-w', '-t', this.target, 'window-size', 'manual']);
  }

  /** The window's size and the rows its status line takes. */
  async windowSize(): Promise<WindowSize | null> {
    const res = await this.run(['display-message', '-p', '-t', this.target, '#{window_width} #{window_height} #{status}']);
    if (!res.ok) return null;
    const [w, h, status] = res.stdout.trim().split(/\s+/);
    const cols = Number(w);
    const rows = Number(h);
    if (!Number.isInteger(cols) || !Number.isInteger(rows) || cols < 1 || rows < 1) return null;
    return { cols, rows, statusLines: statusLines(status ?? 'on') };
  }

  /** The size a client needs to show the whole window: the window plus its status line(s). */
  async clientSize(): Promise<ClientSize | null> {
    const size = await this.windowSize();
    return size && { cols: size.cols, rows: size.rows + size.statusLines };
  }

  /** Sets the window's size (fit-to-width and its restore); with `window-size manual` no client changes it back. */
  async resizeWindow(cols: number, rows: number): Promise<TmuxOutcome> {
    return this.run(['resize-window', '-t', this.target, '-x', String(cols), '-y', String(rows)]);
  }

  async wheel(input: WheelInput): Promise<TmuxOutcome> {
    const state = await this.run(['display-message', '-p', '-t', this.target, PANE_SCROLL_FORMAT]);
    if (!state.ok) return state;
    const parsed = parsePaneScrollState(state.stdout);
    if (!parsed) return { ok: false, code: 'tmux_error', message: 'unreadable pane state' };
    let last: TmuxOutcome = { ok: true, stdout: '' };
    for (const cmd of planWheel(this.target, parsed, input)) {
      last = await this.run(cmd);
      if (!last.ok) return last;
    }
    return last;
  }
}
