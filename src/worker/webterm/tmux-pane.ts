// The few tmux commands the web terminal needs: pin the window size, confine clients, read sizes and history, attach argv.
import { runTmuxChain, type TmuxResult } from '../../platform/tmux-runner.js';
import { tmuxClientEnv as policyTmuxEnv } from '../../shared/env-policy.js';
import { WEBTERM_LIMITS } from '../../shared/webterm-protocol.js';

export const TMUX_PANE_LIMITS = {
  /** A tmux command answers in milliseconds; 5 s means the server is stuck, not slow. */
  commandTimeoutMs: 5_000,
} as const;

/** The one tmux result type (src/platform/tmux-runner.ts). */
export type TmuxOutcome = TmuxResult;

/** Runs `tmux <args>` against the right server; injected so tests can watch what is run. */
export type TmuxRunner = (args: readonly string[]) => Promise<TmuxOutcome>;

export function socketArgs(socket: string | null): string[] {
  return socket === null ? [] : ['-L', socket];
}

/** The environment of the interactive tmux client the web terminal attaches under a pty: the policy, as an xterm-256color terminal. */
export function tmuxClientEnv(base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return policyTmuxEnv(base, { term: 'xterm-256color' });
}

/** `a ; b` as tmux's own command separator (confineArgs sets four options in one call): the commands of a chain. */
export function splitCommands(args: readonly string[]): string[][] {
  const commands: string[][] = [[]];
  for (const a of args) {
    if (a === ';') commands.push([]);
    else commands[commands.length - 1]!.push(a);
  }
  return commands;
}

export function execTmuxRunner(socket: string | null): TmuxRunner {
  // Messages may reach the page: tmux's first 300 characters say what went wrong.
  return async (args) => {
    const res = await runTmuxChain(splitCommands(args), { socket, timeoutMs: TMUX_PANE_LIMITS.commandTimeoutMs });
    return res.ok ? res : { ...res, message: res.message.slice(0, 300) };
  };
}

export interface ClientSize {
  cols: number;
  rows: number;
}

/** A window's size as tmux reports it (here beside the commands that read it, so reflow.ts imports this module and not back). */
export interface WindowSize {
  cols: number;
  rows: number;
  /** Rows the status line takes below the window (a client shows window + status). */
  statusLines: number;
}

/** Rows the status line takes: the `status` option is off, on, or 2–5. */
export function statusLines(status: string): number {
  if (status === 'off') return 0;
  if (status === 'on') return 1;
  const n = Number(status);
  return Number.isInteger(n) && n >= 0 && n <= 5 ? n : 1;
}

/** `=name:` matches exactly that session (a bare name would also match another session it is a prefix of). */
export function exactTarget(tmuxName: string): string {
  return `=${tmuxName}:`;
}

/** The key table a larkmux session's clients use: never bound by anyone, so every key goes to the CLI. */
export const CONFINED_KEY_TABLE = 'larkmux-confined';

/**
 * Session options that make every client of a larkmux session a plain terminal onto its one pane: no prefix key (so
 * no choose-tree, switch-client, command prompt, detach…), a key table with no bindings (so root-table bindings from
 * the user's ~/.tmux.conf do not apply), and no tmux mouse handling (no menus; the mouse goes to the CLI). Session
 * options, so other sessions on the same tmux server keep the user's own settings.
 */
export function confineArgs(tmuxName: string): string[] {
  const t = exactTarget(tmuxName);
  const opts: [string, string][] = [['prefix', 'None'], ['prefix2', 'None'], ['key-table', CONFINED_KEY_TABLE], ['mouse', 'off']];
  return opts.flatMap(([name, value], i) => [...(i ? [';'] : []), 'set-option', '-t', t, name, value]);
}

/** The pane's history as the page shows it: trailing blank lines dropped, only the newest lines that fit in a frame. */
export function trimHistory(captured: string): string {
  const lines = captured.replace(/\s+$/, '').split('\n').slice(-WEBTERM_LIMITS.historyLines);
  let total = 0;
  let from = lines.length;
  while (from > 0 && total + (lines[from - 1]?.length ?? 0) + 1 <= WEBTERM_LIMITS.historyChars) total += (lines[--from]?.length ?? 0) + 1;
  return lines.slice(from).join('\n');
}

/**
 * The argv of one browser's tmux client. `-T RGB` tells tmux this client does truecolor (without it tmux reduces
 * 24-bit colour to 256); it is per client, so the user's own server options are left alone. `-u` because the page
 * always speaks UTF-8. `ignore-size` so a browser never counts in sizing the window.
 */
export function attachArgs(socket: string | null, target: string, readOnly: boolean): string[] {
  const flags = readOnly ? 'ignore-size,read-only' : 'ignore-size';
  return [...socketArgs(socket), '-u', '-T', 'RGB', 'attach-session', '-f', flags, '-t', `=${target}`];
}

export class TmuxPaneControl {
  constructor(
    private readonly run: TmuxRunner,
    readonly target: string,
  ) {}

  /** `window-size manual`: the window keeps the size larkmux gave it, whatever size the clients are (phones too). */
  async pinWindowSize(): Promise<TmuxOutcome> {
    return this.run(['set-option', '-w', '-t', exactTarget(this.target), 'window-size', 'manual']);
  }

  /** Before any browser attaches: its tmux client can reach this pane and nothing else (see confineArgs). */
  async confine(): Promise<TmuxOutcome> {
    return this.run(confineArgs(this.target));
  }

  /** The window's size and the rows its status line takes. */
  async windowSize(): Promise<WindowSize | null> {
    const res = await this.run(['display-message', '-p', '-t', exactTarget(this.target), '#{window_width} #{window_height} #{status}']);
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
    return this.run(['resize-window', '-t', exactTarget(this.target), '-x', String(cols), '-y', String(rows)]);
  }

  /** The pane's history and screen as plain text (read only: the pane's own scroll position is never touched). */
  async history(): Promise<TmuxOutcome> {
    const res = await this.run(['capture-pane', '-p', '-S', `-${WEBTERM_LIMITS.historyLines}`, '-t', exactTarget(this.target)]);
    return res.ok ? { ok: true, stdout: trimHistory(res.stdout) } : res;
  }
}
