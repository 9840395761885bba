// Gemini CLI (measured on 0.61.0): launch argv, screen classification, boxed dialogs, seeding, chat-file location.
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { GeminiTranscriptParser } from '../transcript/gemini.js';
import { PANE_DEAD, arrowsThenEnter, isRule, lastIndexMatching, recognizeDialog, screenLines, unbox, type DialogRule } from './screen.js';
import type { CliAdapter, KeyStep, LaunchContext, CliLaunchSpec, ScreenState, SeedContext, SeedFile, SelectionState, StartupDefault } from './types.js';
import { LITERAL_TEXT } from './literal-text.js';
import { geminiUsageLimitOf } from './limit-phrases.js';
import { CLI_INPUT } from '../../shared/cli-spec.js';

/** The composer: ` > ` after the last full-width rule (history echoes ` > prompt` too, but never below a rule). */
const PROMPT_LINE = /^\s?> /;
const PLACEHOLDER = /^Type your message or @path\/to\/file$/;
/** With truecolor (COLORTERM=truecolor) the input box is framed by rows of half blocks instead of blank lines. */
const HALF_BLOCKS = /^[▀▄]{10,}/;
/** A boxed dialog's highlighted option: `● 1. …`. */
const DIALOG_CURSOR = /^(\s*● )\d+\.\s/;
const BUSY = /\(esc to cancel, \d+[smh]/;
/**
 * The CLI is ending. After the trust dialog, with GEMINI_CLI_NO_RELAUNCH=true, Gemini prints "restarting to apply
 * the trust changes" and then exits (or, seen 2 of 5 and 4 of 7 times here, hangs): either way the process must be
 * started again, so that line counts as exited (the worker ends a lingering one first: runtime/exiting-cli.ts).
 */
const EXIT_TEXT = /Agent powering down\. Goodbye!|Gemini CLI is restarting to apply the trust changes/;
const RESUME_ID = /gemini --resume ([0-9a-fA-F-]{36})/;
/** Not verified live (the fake never limits); wording from Gemini's quota errors. */
const LIMITED = /Quota exceeded|RESOURCE_EXHAUSTED|You have exhausted your|usage limit reached/i;

const DIALOGS: readonly DialogRule[] = [
  { dialog: 'gemini.trust', match: /Do you trust the files in this folder\?/, kind: 'startup' },
  { dialog: 'gemini.auth', match: /How would you like to authenticate for this project\?/, kind: 'startup' },
  { dialog: 'gemini.permission', match: /Allow execution of [^?]*\?|Apply this change\?|Allow execution\?|Do you want to [^?]*\?/, kind: 'permission' },
];
/** Dialogs without a numbered cursor, recognised only while no composer is visible. */
const PLAIN_DIALOGS: readonly DialogRule[] = [
  { dialog: 'gemini.api-key', match: /Enter Gemini API Key/, kind: 'startup', fixedOptions: ['Submit'] },
];

export const GEMINI_STARTUP_DEFAULTS: readonly StartupDefault[] = [
  { dialog: 'gemini.trust', option: /^1\. Trust folder\b/, reason: 'the folder is the bot\'s configured project' },
  { dialog: 'gemini.auth', option: /^\d\. Use Gemini API Key$/, reason: 'the bot\'s environment carries GEMINI_API_KEY' },
  { dialog: 'gemini.api-key', option: /^Submit$/, reason: 'the box is pre-filled from GEMINI_API_KEY in the bot\'s environment' },
];

function composerIndex(lines: readonly string[]): number {
  const rule = lastIndexMatching(lines, /^─{20,}/);
  if (rule < 0) return -1;
  for (let i = rule + 1; i < lines.length && i <= rule + 4; i++) if (PROMPT_LINE.test(lines[i]!)) return i;
  return -1;
}

export function geminiComposerText(screenText: string): string | null {
  const lines = screenLines(screenText);
  const at = composerIndex(lines);
  if (at < 0) return null;
  const first = lines[at]!.replace(PROMPT_LINE, '').trim();
  const parts = [first];
  for (let i = at + 1; i < lines.length && lines[i]!.trim() !== '' && !isRule(lines[i]!) && !HALF_BLOCKS.test(lines[i]!); i++) parts.push(lines[i]!.trim());
  const text = parts.join('\n').trim();
  return PLACEHOLDER.test(text) ? '' : text;
}

export function classifyGemini(screenText: string): ScreenState {
  const lines = screenLines(screenText);
  const plain = lines.map(unbox);
  if (PANE_DEAD.test(screenText) || lines.some((l) => EXIT_TEXT.test(l))) {
    const id = RESUME_ID.exec(plain.join('\n'))?.[1];
    return id ? { kind: 'exited', resumeId: id } : { kind: 'exited' };
  }
  const composer = composerIndex(lines);
  const dialog = recognizeDialog(plain, DIALOG_CURSOR, DIALOGS);
  if (dialog) return dialog;
  if (composer < 0) {
    const other = recognizeDialog(plain, /(?!)/, PLAIN_DIALOGS);
    if (other) return other;
    if (lines.some((l) => LIMITED.test(l))) return { kind: 'limited' };
    return { kind: 'unknown' };
  }
  if (lines.some((l) => BUSY.test(l))) return { kind: 'busy' };
  if (lines.slice(Math.max(0, composer - 8), composer).some((l) => LIMITED.test(l))) return { kind: 'limited' };
  return { kind: 'ready' };
}

/** Ink radio lists: arrows from the highlighted option, then Enter (digits were not verified here). */
export function geminiChoiceKeys(sel: SelectionState, optionIndex: number): KeyStep[] {
  if (sel.options.length === 1) return [{ key: 'enter' }];
  return arrowsThenEnter(sel.defaultIndex, optionIndex);
}

export function geminiLaunch(ctx: LaunchContext): CliLaunchSpec {
  const argv = [...(ctx.command ?? ['gemini'])];
  if (ctx.mode === 'resume' && ctx.nativeSessionId) argv.push('--resume', ctx.nativeSessionId);
  else if (ctx.nativeSessionId) argv.push('--session-id', ctx.nativeSessionId);
  argv.push(...(ctx.extraArgs ?? []));
  return {
    argv,
    // NO_RELAUNCH keeps one process (the relaunched pair survives tmux kill-server); tmux renders truecolor.
    env: { HOME: ctx.home, GEMINI_CLI_NO_RELAUNCH: 'true', COLORTERM: 'truecolor', ...ctx.botEnv },
  };
}

export function geminiTrustFiles(ctx: SeedContext): SeedFile[] {
  return [{ path: join(ctx.home, '.gemini', 'trustedFolders.json'), content: JSON.stringify({ [ctx.cwd]: 'TRUST_FOLDER' }, null, 2), mode: 'merge-json' }];
}

export function geminiSeedFiles(ctx: SeedContext): SeedFile[] {
  const dir = join(ctx.home, '.gemini');
  const settings: Record<string, unknown> = { ui: { hideBanner: true, hideTips: true } };
  if (ctx.env?.GEMINI_API_KEY) settings.security = { auth: { selectedType: 'gemini-api-key' } };
  return [
    { path: join(dir, 'settings.json'), content: JSON.stringify(settings, null, 2), mode: 'merge-json' },
    ...geminiTrustFiles(ctx),
  ];
}

async function sessionIdOf(path: string): Promise<string | null> {
  const fh = await open(path, 'r').catch(() => null);
  if (!fh) return null;
  try {
    const buf = Buffer.alloc(4096);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const line = buf.subarray(0, bytesRead).toString('utf8').split('\n')[0] ?? '';
    return (JSON.parse(line) as { sessionId?: string }).sessionId ?? null;
  } catch {
    return null;
  } finally {
    await fh.close();
  }
}

/** `~/.gemini/tmp/<project>/chats/session-<time>-<first 8 of id>.jsonl`; the project name varies, so every one is checked. */
export async function locateGeminiChat(ctx: { home: string; nativeSessionId?: string }): Promise<string | null> {
  const id = ctx.nativeSessionId;
  if (!id) return null;
  const tmp = join(ctx.home, '.gemini', 'tmp');
  for (const project of await readdir(tmp).catch(() => [] as string[])) {
    const chats = join(tmp, project, 'chats');
    const files = (await readdir(chats).catch(() => [] as string[])).filter((f) => f.endsWith(`-${id.slice(0, 8)}.jsonl`)).sort().reverse();
    for (const f of files) if ((await sessionIdOf(join(chats, f))) === id) return join(chats, f);
  }
  return null;
}

// Alike in shape to codexAdapter (codex.ts), on purpose: the fields are CliAdapter's, the values Gemini's own.
export const geminiAdapter: CliAdapter = {
  usageLimitOf: geminiUsageLimitOf,
  id: 'gemini',
  displayName: 'Gemini CLI',
  launch: geminiLaunch,
  // Notes: the first Enter right after startup is sometimes ignored: verify and re-press once.
  submit: { method: 'paste', enterDelayMs: 300, typeAheadWhileBusy: false },
  literal: LITERAL_TEXT.gemini,
  input: CLI_INPUT.gemini,
  nativeId: { kind: 'chosen', flag: '--session-id' },
  classify: classifyGemini,
  composerText: geminiComposerText,
  choiceKeys: geminiChoiceKeys,
  startupDefaults: GEMINI_STARTUP_DEFAULTS,
  lateStartupDialogs: true,
  seedFiles: geminiSeedFiles,
  trustFiles: geminiTrustFiles,
  transcript: { locate: locateGeminiChat, parser: () => new GeminiTranscriptParser(), turnEnd: 'screen-ready' },
};
