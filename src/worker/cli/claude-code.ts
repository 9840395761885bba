// Claude Code (measured on 2.1.332): launch argv, screen classification, dialogs, seeding, transcript location.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ClaudeTranscriptParser } from '../transcript/claude-code.js';
import {
  PANE_DEAD, arrowsThenEnter, isRule, lastIndexMatching, recognizeDialog, screenLines, type DialogRule,
} from './screen.js';
import { keyWaitSelection, type KeyWaitRule } from './key-hints.js';
import type { CliAdapter, KeyStep, LaunchContext, CliLaunchSpec, ScreenState, SeedContext, SeedFile, SelectionState, StartupDefault } from './types.js';
import { LITERAL_TEXT } from './literal-text.js';
import { claudeUsageLimitOf } from './limit-phrases.js';
import { CLI_INPUT } from '../../shared/cli-spec.js';

/** The input line: `❯` + NO-BREAK SPACE at column 0 (history lines use a normal space). */
const COMPOSER = /^❯\u00a0/;
/** A dialog's cursor is indented; the composer's and the history's `❯` are at column 0. A `✔` marks the current setting. */
const DIALOG_CURSOR = /^(\s+❯ (?:✔ )?)\S/;
const BUSY_FOOTER = /esc to interrupt/;
/**
 * AskUserQuestion (measured on 2.1.332, test/fixtures/screens/claude-26-ask-user-question.txt): numbered options
 * with the cursor at column 0 (like history lines, so only under this footer), ending in "Type something.".
 */
const QUESTION_FOOTER = /Enter to select · ↑\/↓ to navigate/;
const QUESTION_CURSOR = /^(❯ )\d+\.\s/;
/** Its title is the question: the nearest text above the options. */
const QUESTION_RULES: readonly DialogRule[] = [{ dialog: 'claude.question', match: /\S.*/, kind: 'menu' }];
/** Spinner line above the composer: glyph, space, a verb ending in an ellipsis (`✻ Doodling…`). */
const SPINNER = /^[·✢✳✶✻✽*] \S[^…]*…/;
/** Dim placeholders shown in an empty composer (plain captures lose the dimness); the last one follows a refused request. */
const PLACEHOLDERS = [/^Press up to edit queued messages$/, /^Try "[^"]*"$/, /^Resend your message to try again$/];
const EXIT_TEXT = /^Resume this session with:/;
const RESUME_ID = /claude --resume ([0-9a-fA-F-]{36})/;
/** A subscription's limit screen, in Claude Code's own words (needs a real login; the API-billed form is limit-phrases.ts). */
const LIMITED = /Claude (?:AI )?usage limit reached|You['’]ve hit your (?:usage |session |weekly )?limit|5-hour limit reached/i;

const DIALOGS: readonly DialogRule[] = [
  { dialog: 'claude.theme', match: /Choose the text style that looks best with your terminal/, kind: 'startup' },
  { dialog: 'claude.security-notes', match: /Security notes:/, kind: 'startup', fixedOptions: ['Continue'] },
  { dialog: 'claude.trust', match: /Is this a project you created or one you trust\?|Do you trust the files in this folder\?/, kind: 'startup' },
  { dialog: 'claude.api-key', match: /Do you want to use this API key\?/, kind: 'startup' },
  { dialog: 'claude.bypass', match: /Claude Code running in Bypass Permissions mode/, kind: 'startup' },
  { dialog: 'claude.permission', match: /Do you want to [^?]*\?/, kind: 'permission' },
];

/**
 * Auto-mode dialogs: no menu, the choices are key hints on their last line. The first was measured on 2.1.332
 * (test/fixtures/screens/claude-27-auto-mode-cant-check.txt: "Enter to stay in auto mode · shift+Tab to leave for accept
 * edits mode and stop · Esc to cancel", shown when the fake model's server does not run auto mode's safety check); the
 * classifier notice's headings are the pinned binary's own strings, not yet seen on screen. Unrecognised, they left the
 * card saying "processing" while Claude waited for a key (issue 31).
 */
const KEY_DIALOGS: readonly KeyWaitRule[] = [
  { dialog: 'claude.auto-mode-end', match: /Auto mode can't check actions in this session$/, kind: 'permission' },
  {
    dialog: 'claude.auto-mode-notice',
    match: /We're changing auto mode to no longer charge for classifier requests in Claude Code\.|Auto mode switched to its built-in safety check for this session/,
    kind: 'menu',
  },
];

export const CLAUDE_STARTUP_DEFAULTS: readonly StartupDefault[] = [
  { dialog: 'claude.theme', option: /^Auto \(match terminal\)$/, reason: 'the theme only changes colours; auto follows the terminal' },
  { dialog: 'claude.security-notes', option: /^Continue$/, reason: 'an information page with a single way on' },
  { dialog: 'claude.trust', option: /^Yes, I trust this folder$/, reason: 'the folder is the bot\'s configured project; the preselected "No, exit" would quit' },
  { dialog: 'claude.api-key', option: /^Yes$/, reason: 'the key is the one the operator put in the bot\'s environment' },
];

function composerIndex(lines: readonly string[]): number {
  return lastIndexMatching(lines, COMPOSER);
}

export function claudeComposerText(screenText: string): string | null {
  const lines = screenLines(screenText);
  const at = composerIndex(lines);
  if (at < 0) return null;
  const parts = [lines[at]!.slice(2)];
  for (let i = at + 1; i < lines.length && !isRule(lines[i]!); i++) parts.push(lines[i]!.replace(/^ {2}/, ''));
  const text = parts.join('\n').replace(/\s+$/, '');
  return PLACEHOLDERS.some((p) => p.test(text)) ? '' : text;
}

/** The first auto-mode dialog on screen, or null. */
function keyDialog(lines: readonly string[]): SelectionState | null {
  for (const rule of KEY_DIALOGS) {
    const sel = keyWaitSelection(lines, rule);
    if (sel) return sel;
  }
  return null;
}

export function classifyClaude(screenText: string): ScreenState {
  const lines = screenLines(screenText);
  const composer = composerIndex(lines);
  // Exit text below the last composer (or no composer at all) means the process has ended.
  if (PANE_DEAD.test(screenText) || lastIndexMatching(lines, EXIT_TEXT) > composer) {
    const id = RESUME_ID.exec(lines.slice(Math.max(0, composer)).join('\n'))?.[1];
    return id ? { kind: 'exited', resumeId: id } : { kind: 'exited' };
  }
  if (composer < 0) {
    // Dialogs replace the composer; with the composer visible an indented ❯ is slash-command completion.
    const dialog = recognizeDialog(lines, DIALOG_CURSOR, DIALOGS)
      ?? (lines.some((l) => QUESTION_FOOTER.test(l)) ? recognizeDialog(lines, QUESTION_CURSOR, QUESTION_RULES) : null)
      ?? keyDialog(lines);
    if (dialog) return dialog;
    if (lines.some((l) => LIMITED.test(l))) return { kind: 'limited' };
    return { kind: 'unknown' };
  }
  const nearFrom = Math.max(0, composer - 8);
  if (lines.slice(nearFrom).some((l) => BUSY_FOOTER.test(l)) || lines.slice(nearFrom, composer).some((l) => SPINNER.test(l))) return { kind: 'busy' };
  if (lines.slice(nearFrom, composer).some((l) => LIMITED.test(l))) return { kind: 'limited' };
  return { kind: 'ready' };
}

/** A digit picks and confirms a numbered permission option; list dialogs (trust: digits do nothing) take arrows. */
export function claudeChoiceKeys(sel: SelectionState, optionIndex: number): KeyStep[] {
  const label = sel.options[optionIndex]?.label ?? '';
  const digit = /^(\d)\.\s/.exec(label)?.[1];
  if (sel.selectionKind === 'permission' && digit) return [{ text: digit }];
  if (sel.options.length === 1) return [{ key: 'enter' }];
  return arrowsThenEnter(sel.defaultIndex, optionIndex);
}

/** Claude's project folder name: every character outside [A-Za-z0-9] becomes `-`. */
export function claudeProjectDirName(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

function claudeConfigDir(home: string, env: Record<string, string>): string {
  return env.CLAUDE_CONFIG_DIR ?? join(home, '.claude');
}

export function claudeTranscriptPath(home: string, cwd: string, sessionId: string, env: Record<string, string> = {}): string {
  return join(claudeConfigDir(home, env), 'projects', claudeProjectDirName(cwd), `${sessionId}.jsonl`);
}

async function exists(p: string): Promise<boolean> {
  return stat(p).then(() => true, () => false);
}

/**
 * A Claude taken over by /adopt has no id larkmux chose: its transcript is the newest one of the folder written since
 * the take-over (Claude creates and appends it as prompts arrive). The first record read then reports the id.
 */
export async function newestClaudeTranscript(home: string, cwd: string, env: Record<string, string>, sinceMs: number): Promise<string | null> {
  const dir = join(claudeConfigDir(home, env), 'projects', claudeProjectDirName(cwd));
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.jsonl'));
  let best: { path: string; mtime: number } | null = null;
  for (const n of names) {
    const path = join(dir, n);
    const st = await stat(path).catch(() => null);
    if (st && st.mtimeMs >= sinceMs && (!best || st.mtimeMs > best.mtime)) best = { path, mtime: st.mtimeMs };
  }
  return best?.path ?? null;
}

export function claudeLaunch(ctx: LaunchContext): CliLaunchSpec {
  const argv = [...(ctx.command ?? ['claude'])];
  if (ctx.mode === 'resume' && ctx.nativeSessionId) argv.push('--resume', ctx.nativeSessionId);
  else if (ctx.nativeSessionId) argv.push('--session-id', ctx.nativeSessionId);
  if (ctx.paneHint) argv.push('--append-system-prompt', ctx.paneHint);
  argv.push(...(ctx.extraArgs ?? []));
  // The auto-updater would replace the binary under a running bridge session; the operator updates deliberately.
  return { argv, env: { HOME: ctx.home, DISABLE_AUTOUPDATER: '1', ...ctx.botEnv } };
}

export function claudeSeedFiles(ctx: SeedContext): SeedFile[] {
  const state: Record<string, unknown> = {
    hasCompletedOnboarding: true,
    hasSeenAutoDefaultNotice: true,
    projects: { [ctx.cwd]: { hasTrustDialogAccepted: true } },
  };
  const apiKey = ctx.env?.ANTHROPIC_API_KEY;
  // Claude stores approval of an env API key as its last 20 characters; without it a fresh home runs an online preflight.
  if (apiKey) state.customApiKeyResponses = { approved: [apiKey.slice(-20)], rejected: [] };
  return [{ path: join(ctx.home, '.claude.json'), content: JSON.stringify(state, null, 2), mode: 'merge-json' }];
}

export const claudeCodeAdapter: CliAdapter = {
  usageLimitOf: claudeUsageLimitOf,
  id: 'claude-code',
  displayName: 'Claude Code',
  launch: claudeLaunch,
  // Paste then Enter ~300 ms later (notes: an Enter in the same burst can be swallowed). Claude would queue text typed
  // while busy, but records it in the transcript only when it runs: delivery could not be proven in time, so the
  // worker queues instead and sends when the turn ends.
  submit: { method: 'paste', enterDelayMs: 300, typeAheadWhileBusy: false },
  literal: LITERAL_TEXT['claude-code'],
  input: CLI_INPUT['claude-code'],
  nativeId: { kind: 'chosen', flag: '--session-id' },
  classify: classifyClaude,
  composerText: claudeComposerText,
  choiceKeys: claudeChoiceKeys,
  startupDefaults: CLAUDE_STARTUP_DEFAULTS,
  lateStartupDialogs: true,
  seedFiles: claudeSeedFiles,
  transcript: {
    async locate({ cwd, home, env, nativeSessionId, startedAfterMs }) {
      if (!nativeSessionId) return startedAfterMs === undefined ? null : newestClaudeTranscript(home, cwd, env, startedAfterMs);
      const direct = claudeTranscriptPath(home, cwd, nativeSessionId, env);
      if (await exists(direct)) return direct;
      // Long cwds are cut and hashed by Claude: look for the id in every project folder.
      const projects = join(claudeConfigDir(home, env), 'projects');
      const dirs = await readdir(projects).catch(() => [] as string[]);
      for (const d of dirs) {
        const p = join(projects, d, `${nativeSessionId}.jsonl`);
        if (await exists(p)) return p;
      }
      return null;
    },
    parser: () => new ClaudeTranscriptParser(),
    turnEnd: 'record',
  },
};
