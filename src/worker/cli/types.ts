// The CliAdapter contract: how one coding CLI is launched, fed, read from the screen, and followed in its transcript.
import type { KnownCliId } from '../../shared/config.js';
import type { CliInput } from '../../shared/cli-spec.js';
import type { KeyName } from '../../shared/keys.js';
import type { TranscriptParser } from '../transcript/types.js';
import type { LiteralTextPolicy } from './literal-text.js';
import type { UsageLimitSeen } from './usage-limit.js';

/** Every adapter id. `custom` is configured as an object (command + patterns) rather than a name. */
export type CliId = KnownCliId | 'custom';

export interface SelectionOption {
  label: string;
}

export type SelectionKind = 'startup' | 'permission' | 'menu';

/** A menu or dialog on screen, described well enough to show on a card and answer with keys. */
export interface SelectionState {
  kind: 'selection';
  /** The dialog's question or heading, as on screen. */
  title: string;
  options: SelectionOption[];
  /** The option the cursor is on (what Enter would pick). */
  defaultIndex: number;
  selectionKind: SelectionKind;
  /** Stable for the same title + options (a redraw of the same dialog keeps its id); see selectionId(). */
  id: string;
  /** Which known dialog this is (e.g. `claude.trust`), for safe defaults; absent for unrecognised menus. */
  dialog?: string;
  /** The option that takes a typed answer (Claude's "Type something."), when there is one. */
  textOption?: number;
  /** Keys per option when the screen names them ("Enter to …", "Esc to …"); otherwise the adapter's choiceKeys decide. */
  optionKeys?: KeyStep[][];
}

/** What the screen shows right now. Pure function of the captured text (see CliAdapter.classify). */
export type ScreenState =
  | { kind: 'ready' }
  | { kind: 'busy' }
  | SelectionState
  | { kind: 'limited'; detail?: string }
  | { kind: 'exited'; resumeId?: string }
  | { kind: 'unknown' };

/** One step of input: a named key (shared/keys.ts) or literal text sent with `send-keys -l`. */
export type KeyStep = { key: KeyName } | { text: string };

export interface LaunchContext {
  /** The pane's working directory (absolute). */
  cwd: string;
  /** HOME for the CLI (tests use a temp dir; the worker passes the user's). */
  home: string;
  mode: 'new' | 'resume';
  /** For `new` with a chosen id (Claude, Gemini) and for every `resume`. */
  nativeSessionId?: string;
  /** The bot's configured environment (`bots[].env`), passed through untouched. */
  botEnv: Record<string, string>;
  /** Program argv prefix replacing the adapter's default (e.g. a pinned binary path, or `node …/gemini.js`). */
  command?: readonly string[];
  /** Extra arguments appended after the adapter's own (e.g. `--permission-mode default`). */
  extraArgs?: readonly string[];
  /** Told to the model where the CLI has a place for it (see pane-hint.ts): how to send files into the chat. */
  paneHint?: string;
}

export interface CliLaunchSpec {
  argv: string[];
  /** Variables to set for the CLI on top of the inherited environment. */
  env: Record<string, string>;
}

export interface SubmitStyle {
  /** `paste` = load-buffer + paste-buffer -p (bracketed); `keys` = send-keys -l. Multi-line text always pastes. */
  method: 'paste' | 'keys';
  /** Wait between the text and Enter; Enter sent in the same burst as a paste is taken as a newline or dropped. */
  enterDelayMs: number;
  /** Whether text typed while the CLI is busy is queued by the CLI itself as a separate next turn. */
  typeAheadWhileBusy: boolean;
  /**
   * A line-oriented program (a shell) moves to a new line the moment it takes Enter, so a newline in the pane output
   * after Enter proves delivery. Not for TUIs, whose redraws print newlines at any time.
   */
  newlineProvesEnter?: boolean;
}

/** How a startup dialog is answered without a person: pick the option whose label matches. */
export interface StartupDefault {
  /** `SelectionState.dialog` this applies to. */
  dialog: string;
  /** The option to choose; the first option whose label matches. */
  option: RegExp;
  /** Why this answer is safe, for the log. */
  reason: string;
}

/** How the native session id becomes known. */
export type NativeIdStrategy =
  /** We pass a UUID on the command line (`--session-id`); the transcript path follows from it. */
  | { kind: 'chosen'; flag: string }
  /** The CLI picks one; read it from its transcript (found by `locateTranscript`) after the first prompt. */
  | { kind: 'discovered' }
  /** The program has no resumable identity (shell, custom). */
  | { kind: 'none' };

export interface SeedFile {
  /** Absolute path. */
  path: string;
  content: string;
  /**
   * `replace` writes the file; `merge-json` deep-merges the JSON into an existing file (keeps the user's own
   * settings); `append-unless-present` appends `content` unless the file already contains `marker` (TOML tables).
   */
  mode: 'replace' | 'merge-json' | 'append-unless-present';
  marker?: string;
}

export interface SeedContext {
  cwd: string;
  home: string;
  /** Codex keeps its config in CODEX_HOME; defaults to `<home>/.codex`. */
  codexHome?: string;
  /** A model endpoint to point the CLI at (tests: the fake server). Absent = the CLI's own default. */
  baseUrl?: string;
  /** The environment the CLI will get (an API key in it changes what must be seeded). */
  env?: Record<string, string>;
}

export interface TranscriptLocator {
  /** Finds the transcript file for this session, or null when it does not exist (yet). Reads the file system. */
  locate(ctx: { cwd: string; home: string; env: Record<string, string>; nativeSessionId?: string; startedAfterMs?: number }): Promise<string | null>;
  /** A fresh parser for this CLI's records. */
  parser(): TranscriptParser;
  /**
   * `record`: the transcript has its own end-of-turn record. `screen-ready`: it has none (Gemini); call
   * `TranscriptFollower.settle()` when the screen is ready again to close the turn.
   */
  readonly turnEnd: 'record' | 'screen-ready';
}

export interface CliAdapter {
  readonly id: CliId;
  /** Human name for logs and cards. */
  readonly displayName: string;
  launch(ctx: LaunchContext): CliLaunchSpec;
  readonly submit: SubmitStyle;
  /** How a prompt is kept literal: leading characters that switch modes, and their escape (cli/literal-text.ts). */
  readonly literal: LiteralTextPolicy;
  /** Whether the CLI reads typed text as a prompt or runs it (shared/cli-spec.ts CLI_INPUT; the daemon decides what to type by it). */
  readonly input: CliInput;
  readonly nativeId: NativeIdStrategy;
  /** Pure: what the captured screen (plain `capture-pane -p` text; ANSI is tolerated and stripped) shows. */
  classify(screenText: string): ScreenState;
  /** Pure: the text sitting in the input box ('' when empty or showing its placeholder), or null when no input box is visible. */
  composerText(screenText: string): string | null;
  /** Pure: the keys that pick `optionIndex` in `selection` (from where its cursor is now). */
  choiceKeys(selection: SelectionState, optionIndex: number): KeyStep[];
  /** Startup dialogs answered without asking anyone, as data. */
  readonly startupDefaults: readonly StartupDefault[];
  /**
   * Whether a start-up dialog can still replace the CLI's first input prompt (a trust question, an onboarding offer):
   * the readiness gate then trusts the prompt only once it has held (READINESS_TIMING.readySettleMs). A program that
   * puts up no dialogs after its prompt (a shell) is typed into as soon as its prompt shows.
   */
  readonly lateStartupDialogs: boolean;
  /**
   * The program starts other programs in its pane (a shell): one of them in the foreground at a take-over (top, less)
   * is typed into at once instead of waiting for a prompt that comes only when it ends (lifecycle/takeover-ready.ts).
   */
  readonly hostsPrograms?: boolean;
  /** Config files that skip onboarding (theme, trust, auth method). Empty when the CLI has none. */
  seedFiles(ctx: SeedContext): SeedFile[];
  /**
   * Only the working folder's trust, written by the worker before a launch when startup dialogs are answered
   * automatically (the answer would be "trust" anyway): the CLI then never puts up its late trust dialog, and Gemini
   * never exits to apply it. Absent when the CLI asks no trust question or its config is not safe to merge into.
   */
  trustFiles?(ctx: SeedContext): SeedFile[];
  /**
   * Pure: the vendor's usage or rate limit as the CLI words it in `text` (screen or a transcript line), the reset read
   * as a time in `zone()` after `now`; null when the text shows none. Absent for programs with no vendor (shell, custom).
   * `zone` is asked only when a limit line names a clock time (see clockTime in limit-time.ts).
   */
  usageLimitOf?(text: string, now: number, zone: () => string): UsageLimitSeen | null;
  /** null when the program keeps no transcript (shell, custom): final output then comes from the screen. */
  readonly transcript: TranscriptLocator | null;
}

/** Result of building an adapter: a custom spec with a bad regex is an expected failure, not a throw. */
export type AdapterResult = { ok: true; adapter: CliAdapter } | { ok: false; code: 'bad_pattern'; message: string };
