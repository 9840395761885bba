// Codex CLI (measured on 0.171.0): launch argv, screen classification, dialogs, config seeding, rollout location.
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CodexTranscriptParser } from '../transcript/codex.js';
import { PANE_DEAD, arrowsThenEnter, lastIndexMatching, recognizeDialog, screenLines, type DialogRule } from './screen.js';
import type { CliAdapter, KeyStep, LaunchContext, CliLaunchSpec, ScreenState, SeedContext, SeedFile, SelectionState, StartupDefault } from './types.js';
import { LITERAL_TEXT } from './literal-text.js';
import { codexUsageLimitOf } from './limit-phrases.js';
import { CLI_INPUT } from '../../shared/cli-spec.js';

/** Composer and history prompts both start with `› ` (U+203A) at column 0; the composer is the last one. */
const PROMPT_LINE = /^› /;
/** A dialog's highlighted option: `› 1. …` (or `> 1. …` on the sign-in screen) with a key hint below it. */
const DIALOG_CURSOR = /^([›>] )\d+\.\s/;
const DIALOG_HINT = /Press enter to (?:confirm|continue)|enter continue|esc to cancel|esc back/i;
const EMPTY_FOOTER = /\? for shortcuts/;
const BUSY = /esc to interrupt/;
const EXIT_TEXT = /^(?:To continue this session, run:|To reconnect, run:|Disconnected from this task\.)/;
const RESUME_ID = /codex resume ([0-9a-fA-F-]{36})/;
/** Placeholders Codex shows dimmed in an empty composer (plain captures lose the dimness). */
const PLACEHOLDERS = [/^Ask Codex to do anything$/];
/** Codex's usage-limit line (checked against the fake's usage_limit_reached, fixture codex-17; Codex prints ’). */
const LIMITED = /You['’]ve hit your usage limit|usage limit reached|Rate limit reached/i;

const DIALOGS: readonly DialogRule[] = [
  { dialog: 'codex.trust', match: /Trust this folder\?/, kind: 'startup' },
  { dialog: 'codex.sign-in', match: /Choose how you want to use Codex\./, kind: 'startup' },
  { dialog: 'codex.approval', match: /Would you like to [^?]*\?/, kind: 'permission' },
];
/** Overlays without a numbered cursor, recognised only while no composer is visible. */
const OVERLAYS: readonly DialogRule[] = [
  { dialog: 'codex.warnings', match: /^\s*Warnings · \d+ of \d+/, kind: 'menu', fixedOptions: ['Keep & next (k)', 'Dismiss & close (esc)'] },
];

export const CODEX_STARTUP_DEFAULTS: readonly StartupDefault[] = [
  { dialog: 'codex.trust', option: /^1\. Trust and continue$/, reason: 'the folder is the bot\'s configured project' },
];

function findDialog(lines: readonly string[]): SelectionState | null {
  const cursor = lastIndexMatching(lines, DIALOG_CURSOR);
  if (cursor >= 0 && lines.slice(cursor + 1).some((l) => DIALOG_HINT.test(l))) return recognizeDialog(lines, DIALOG_CURSOR, DIALOGS);
  return null;
}

function composerIndex(lines: readonly string[]): number {
  return lastIndexMatching(lines, PROMPT_LINE);
}

export function codexComposerText(screenText: string): string | null {
  const lines = screenLines(screenText);
  if (findDialog(lines)) return null;
  const at = composerIndex(lines);
  if (at < 0) return null;
  const parts = [lines[at]!.slice(2)];
  let i = at + 1;
  for (; i < lines.length && lines[i]!.trim() !== ''; i++) parts.push(lines[i]!.replace(/^ {2}/, ''));
  const text = parts.join('\n').replace(/\s+$/, '');
  // The footer's "? for shortcuts" disappears while the composer holds text, so it proves emptiness.
  if (lines.slice(i).some((l) => EMPTY_FOOTER.test(l))) return '';
  if (PLACEHOLDERS.some((p) => p.test(text))) return '';
  // With an `-e` capture the placeholder is dim (ESC[2m) right after the prompt; line indices match the raw text.
  const rawLine = screenText.split('\n')[at] ?? '';
  if (/›(?:\x1b\[[0-9;]*m)*\s*(?:\x1b\[[0-9;]*m)*\x1b\[2m/.test(rawLine)) return '';
  return text;
}

export function classifyCodex(screenText: string): ScreenState {
  const lines = screenLines(screenText);
  const dialog = findDialog(lines);
  if (dialog) return dialog;
  const composer = composerIndex(lines);
  if (PANE_DEAD.test(screenText) || lastIndexMatching(lines, EXIT_TEXT) > composer) {
    const id = RESUME_ID.exec(lines.slice(Math.max(0, composer)).join('\n'))?.[1];
    return id ? { kind: 'exited', resumeId: id } : { kind: 'exited' };
  }
  if (composer < 0) {
    const overlay = recognizeDialog(lines, /(?!)/, OVERLAYS);
    if (overlay) return overlay;
    if (lines.some((l) => LIMITED.test(l))) return { kind: 'limited' };
    return { kind: 'unknown' };
  }
  const nearFrom = Math.max(0, composer - 6);
  if (lines.slice(nearFrom).some((l) => BUSY.test(l))) return { kind: 'busy' };
  if (lines.slice(nearFrom, composer).some((l) => LIMITED.test(l))) return { kind: 'limited' };
  return { kind: 'ready' };
}

/** Options that name their own key — `(y)`, `(p)`, `(k)`, `(esc)` — get that key; others arrows + Enter. */
export function codexChoiceKeys(sel: SelectionState, optionIndex: number): KeyStep[] {
  const label = sel.options[optionIndex]?.label ?? '';
  const hint = /\((esc|[a-z])\)$/.exec(label)?.[1];
  if (hint === 'esc') return [{ key: 'esc' }];
  if (hint) return [{ text: hint }];
  return arrowsThenEnter(sel.defaultIndex, optionIndex);
}

export function codexLaunch(ctx: LaunchContext): CliLaunchSpec {
  const argv = [...(ctx.command ?? ['codex'])];
  // A config override is a TOML value: a JSON string literal of plain text is a valid TOML basic string.
  if (ctx.paneHint) argv.push('-c', `developer_instructions=${JSON.stringify(ctx.paneHint)}`);
  // --no-daemon: otherwise an app-server daemon is started that outlives the TUI and tmux kill-server.
  if (ctx.mode === 'resume' && ctx.nativeSessionId) argv.push('resume', '--no-daemon', ...(ctx.extraArgs ?? []), ctx.nativeSessionId);
  else argv.push('--no-daemon', ...(ctx.extraArgs ?? []));
  return { argv, env: { HOME: ctx.home, ...ctx.botEnv } };
}

export function codexHomeOf(home: string, env: Record<string, string> = {}): string {
  return env.CODEX_HOME ?? join(home, '.codex');
}

/** TOML basic string: JSON string escapes are valid TOML for the paths we write. */
const tomlString = (s: string): string => JSON.stringify(s);

/** The folder's trust table, appended once to config.toml (a user's own settings are never rewritten). */
export function codexTrustFiles(ctx: SeedContext): SeedFile[] {
  const dir = ctx.codexHome ?? codexHomeOf(ctx.home, ctx.env);
  const trust = `[projects.${tomlString(ctx.cwd)}]\ntrust_level = "trusted"\n`;
  return [{ path: join(dir, 'config.toml'), content: `\n${trust}`, mode: 'append-unless-present', marker: `[projects.${tomlString(ctx.cwd)}]` }];
}

export function codexSeedFiles(ctx: SeedContext): SeedFile[] {
  const trust = `[projects.${tomlString(ctx.cwd)}]\ntrust_level = "trusted"\n`;
  if (!ctx.baseUrl) return codexTrustFiles(ctx);
  const dir = ctx.codexHome ?? codexHomeOf(ctx.home, ctx.env);
  const config = [
    'model = "fake-model"',
    'model_provider = "fake"',
    '',
    '[model_providers.fake]',
    'name = "Fake OpenAI"',
    `base_url = ${tomlString(`${ctx.baseUrl.replace(/\/$/, '')}/v1`)}`,
    'env_key = "FAKE_OPENAI_API_KEY"',
    'wire_api = "responses"',
    '',
    trust,
  ].join('\n');
  return [{ path: join(dir, 'config.toml'), content: config, mode: 'replace' }];
}

async function firstLine(path: string): Promise<string> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const text = buf.subarray(0, bytesRead).toString('utf8');
    const nl = text.indexOf('\n');
    return nl < 0 ? text : text.slice(0, nl);
  } finally {
    await fh.close();
  }
}

/** Rollout files under sessions/YYYY/MM/DD, newest day first. */
async function rolloutFiles(sessions: string): Promise<string[]> {
  const out: string[] = [];
  const sortedDirs = async (p: string) => (await readdir(p).catch(() => [] as string[])).sort().reverse();
  for (const y of await sortedDirs(sessions))
    for (const m of await sortedDirs(join(sessions, y)))
      for (const d of await sortedDirs(join(sessions, y, m)))
        for (const f of await sortedDirs(join(sessions, y, m, d))) if (/^rollout-.*\.jsonl$/.test(f)) out.push(join(sessions, y, m, d, f));
  return out;
}

export async function locateCodexRollout(ctx: { cwd: string; home: string; env: Record<string, string>; nativeSessionId?: string; startedAfterMs?: number }): Promise<string | null> {
  const files = await rolloutFiles(join(codexHomeOf(ctx.home, ctx.env), 'sessions'));
  if (ctx.nativeSessionId) return files.find((f) => f.endsWith(`-${ctx.nativeSessionId}.jsonl`)) ?? null;
  // Unknown id: the newest rollout started after launch whose session_meta names our cwd.
  for (const f of files) {
    const st = await stat(f).catch(() => null);
    if (!st || (ctx.startedAfterMs !== undefined && st.mtimeMs < ctx.startedAfterMs)) continue;
    try {
      const meta = JSON.parse(await firstLine(f)) as { type?: string; payload?: { cwd?: string } };
      if (meta.type === 'session_meta' && meta.payload?.cwd === ctx.cwd) return f;
    } catch {
      // half-written first line: try again on the next poll
    }
  }
  return null;
}

// Alike in shape to geminiAdapter (gemini.ts), on purpose: an adapter is a declaration of CliAdapter's fields, and every
// value here is Codex's own, measured on Codex. A shared base would tie two CLIs that change apart.
export const codexAdapter: CliAdapter = {
  usageLimitOf: codexUsageLimitOf,
  id: 'codex',
  displayName: 'Codex',
  launch: codexLaunch,
  // Notes: Codex sometimes swallows the Enter (most often right after a tool turn): always verify and re-press once.
  submit: { method: 'paste', enterDelayMs: 300, typeAheadWhileBusy: false },
  literal: LITERAL_TEXT.codex,
  input: CLI_INPUT.codex,
  nativeId: { kind: 'discovered' },
  classify: classifyCodex,
  composerText: codexComposerText,
  choiceKeys: codexChoiceKeys,
  startupDefaults: CODEX_STARTUP_DEFAULTS,
  lateStartupDialogs: true,
  seedFiles: codexSeedFiles,
  trustFiles: codexTrustFiles,
  transcript: { locate: locateCodexRollout, parser: () => new CodexTranscriptParser(), turnEnd: 'record' },
};
