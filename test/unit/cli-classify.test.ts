// Every captured screen of Claude Code, Codex and Gemini CLI classified: ready, busy, dialogs with exact options, exits.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adapterFor } from '../../src/worker/cli/registry.js';
import type { CliAdapter, ScreenState } from '../../src/worker/cli/types.js';

const DIR = join(import.meta.dirname, '../fixtures/screens');

function adapter(id: 'claude-code' | 'codex' | 'gemini'): CliAdapter {
  const r = adapterFor(id);
  if (!r.ok) throw new Error(r.message);
  return r.adapter;
}

type Expect =
  | { kind: 'ready' | 'busy' | 'unknown' | 'limited' }
  | { kind: 'exited'; resumeId?: string }
  | { kind: 'selection'; selectionKind: 'startup' | 'permission' | 'menu'; dialog?: string; title: string; options: string[]; defaultIndex: number };

const sel = (selectionKind: 'startup' | 'permission' | 'menu', dialog: string, title: string, options: string[], defaultIndex = 0): Expect =>
  ({ kind: 'selection', selectionKind, dialog, title, options, defaultIndex });
const READY: Expect = { kind: 'ready' };
const BUSY: Expect = { kind: 'busy' };

const CLAUDE_THEMES = ['Auto (match terminal)', 'Dark mode', 'Light mode', 'Dark mode (colorblind-friendly)', 'Light mode (colorblind-friendly)', 'Dark mode (ANSI colors only)', 'Light mode (ANSI colors only)'];

/** fixture base name → [cli, expected state, expected composer text (null = no input box)] */
const TABLE: Record<string, ['claude-code' | 'codex' | 'gemini', Expect, string | null]> = {
  'claude-01-onboarding-theme': ['claude-code', sel('startup', 'claude.theme', 'Choose the text style that looks best with your terminal', CLAUDE_THEMES), null],
  'claude-02-onboarding-after-theme': ['claude-code', sel('startup', 'claude.security-notes', 'Security notes:', ['Continue']), null],
  'claude-03-onboarding-after-security': ['claude-code', sel('startup', 'claude.trust', 'Is this a project you created or one you trust?', ['No, exit', 'Yes, I trust this folder'], 0), null],
  'claude-04-idle-first': ['claude-code', READY, ''],
  'claude-05-typed': ['claude-code', READY, 'hello from probe one'],
  'claude-06-reply': ['claude-code', READY, ''],
  'claude-07-busy': ['claude-code', BUSY, ''],
  'claude-07b-busy': ['claude-code', BUSY, ''],
  'claude-08-tool-auto': ['claude-code', READY, ''],
  'claude-09-slash-exit-typed': ['claude-code', READY, '/exit'],
  'claude-10-after-exit': ['claude-code', { kind: 'exited', resumeId: '0d84ddc5-c63c-4667-835b-a1aca94ceb41' }, '/exit'],
  'claude-11-apikey-confirm': ['claude-code', sel('startup', 'claude.api-key', 'Do you want to use this API key?', ['Yes', 'No (recommended)'], 1), null],
  'claude-12-after-apikey-yes': ['claude-code', READY, ''],
  'claude-13-idle-seeded': ['claude-code', READY, ''],
  'claude-14-permission-prompt': ['claude-code', sel('permission', 'claude.permission', 'Do you want to proceed?', [
    '1. Yes', '2. Yes, and always allow access to /tmp/probe-cli/work-claude from this project',
    '3. Yes, and switch to auto mode · auto mode handles these prompts for you', '4. No']), null],
  'claude-15-after-permission-yes': ['claude-code', READY, ''],
  'claude-16-permission-denied-esc': ['claude-code', READY, ''],
  'claude-17-pasted': ['claude-code', READY, 'line one of paste\nline two MULTILINE\nline three'],
  'claude-18-multiline-reply': ['claude-code', READY, ''],
  'claude-19-bigpaste': ['claude-code', READY, '[Pasted text #1 +25 lines]'],
  'claude-20-queued-while-busy': ['claude-code', BUSY, ''],
  'claude-21-interrupted': ['claude-code', READY, 'SLOW to be interrupted'],
  'claude-22-ctrl-c-once': ['claude-code', READY, ''],
  'claude-23-resume-bypass': ['claude-code', sel('startup', 'claude.bypass', 'Claude Code running in Bypass Permissions mode', ['No, exit', 'Yes, I accept']), null],
  'claude-24-resumed-bypass-idle': ['claude-code', READY, ''],
  'claude-25-idle-seeded-authtoken': ['claude-code', READY, ''],
  'claude-26-ask-user-question': ['claude-code', sel('menu', 'claude.question', 'Which colour should the button be?', ['1. Red', '2. Blue', '3. Type something.']), null],
  // Measured on 2.1.332 with the fake model's server (it does not run auto mode's safety check), issue 31.
  'claude-27-auto-mode-cant-check': ['claude-code', sel('permission', 'claude.auto-mode-end', "Auto mode can't check actions in this session", [
    'Stay in auto mode (Enter)', 'Leave for accept edits mode and stop (Shift+Tab)', 'Cancel (Esc)']), null],
  'claude-28-auto-mode-asks-permission': ['claude-code', sel('permission', 'claude.permission', 'Do you want to proceed?', ['No', 'Yes']), null],
  'claude197-01-idle': ['claude-code', READY, ''],
  // A usage limit on an API-billed Claude: it retries by itself, so the screen is busy (usage-limit.test.ts reads it).
  'claude-29-limit-retrying': ['claude-code', BUSY, ''],
  // Claude gave up after ten attempts: idle, with "Resend your message to try again" as the input's placeholder.
  'claude-30-limit-gave-up': ['claude-code', READY, ''],
  'claude197-02-permission': ['claude-code', sel('permission', 'claude.permission', 'Do you want to proceed?', ['1. Yes', '2. Yes, and always allow access to work-claude/ from this project', '3. No']), null],
  'codex-00-no-config-first-run': ['codex', sel('startup', 'codex.sign-in', 'Choose how you want to use Codex.', ['1. Sign in with ChatGPT', '2. Sign in with Device Code', '3. Sign in another way']), null],
  'codex-01-first-screen': ['codex', READY, ''],
  'codex-02-idle': ['codex', READY, ''],
  'codex-03-warning': ['codex', sel('menu', 'codex.warnings', 'Warnings · 1 of 1', ['Keep & next (k)', 'Dismiss & close (esc)']), null],
  'codex-04-typed': ['codex', READY, 'hello from codex probe'],
  'codex-05-reply': ['codex', READY, ''],
  'codex-06-busy': ['codex', BUSY, ''],
  'codex-06b-busy': ['codex', BUSY, ''],
  'codex-07-tool': ['codex', READY, ''],
  'codex-08-escalation-autorejected-untrusted-dir': ['codex', READY, ''],
  'codex-09-after-exit': ['codex', { kind: 'exited', resumeId: '01a22b7b-ef3f-7cd0-ac25-100038391bf1' }, null],
  'codex-10-trust-git': ['codex', sel('startup', 'codex.trust', 'Trust this folder?', ['1. Trust and continue', '2. Back to Agent Command Center']), null],
  'codex-11-after-trust': ['codex', READY, ''],
  'codex-12-approval-prompt': ['codex', sel('permission', 'codex.approval', 'Would you like to run the following command?', [
    '1. Yes, proceed (y)', "2. Yes, and don't ask again for commands that start with `touch escalated.txt` (p)", '3. No, and tell Codex what to do differently (esc)']), null],
  'codex-13-after-approve': ['codex', READY, ''],
  'codex-14-enter-swallowed': ['codex', READY, 'after tool 3'],
  'codex-15-tool-run': ['codex', READY, ''],
  // After "You’ve hit your usage limit" Codex offers a cheaper model: a menu a person answers.
  'codex-17-usage-limit': ['codex', { kind: 'selection', selectionKind: 'menu', title: 'Switch to gpt-6-luna for lower credit usage?', options: ['1. Switch to gpt-6-luna                   Fast and affordable model for easier tasks.', '2. Keep current model', '3. Keep current model (never show again)  Hide future rate limit reminders about switching models'], defaultIndex: 0 }, null],
  // A rate limit Codex retries by itself ("Server is busy, reconnecting 2/5"): busy.
  'codex-18-rate-limit-retrying': ['codex', BUSY, ''],
  'codex-16-exit-nodaemon': ['codex', { kind: 'exited', resumeId: '01a22b7d-4f8c-7293-8f1c-abcb52c05dc0' }, null],
  'gemini-01-first-screen': ['gemini', sel('startup', 'gemini.trust', 'Do you trust the files in this folder?', ['1. Trust folder (work-gemini)', '2. Trust parent folder (probe-cli)', "3. Don't trust"]), null],
  'gemini-02-after-trust': ['gemini', sel('startup', 'gemini.auth', 'How would you like to authenticate for this project?', ['1. Sign in with Google', '2. Use Gemini API Key', '3. Vertex AI'], 1), null],
  'gemini-03-after-auth': ['gemini', sel('startup', 'gemini.api-key', 'Enter Gemini API Key', ['Submit']), null],
  'gemini-04-idle': ['gemini', READY, ''],
  'gemini-05-reply': ['gemini', READY, ''],
  'gemini-06-busy': ['gemini', BUSY, ''],
  'gemini-07-permission': ['gemini', sel('permission', 'gemini.permission', 'Allow execution of [Shell]?', ['1. Allow once', '2. Allow for this session', '3. No, suggest changes (esc)']), null],
  'gemini-08-after-allow': ['gemini', READY, ''],
  'gemini-09-exit': ['gemini', { kind: 'exited', resumeId: '0b9fb1ca-4db0-4a6b-aa6b-99e91ce195a3' }, null],
  'gemini-10-idle-seeded-norelaunch': ['gemini', READY, ''],
  'gemini-10-idle-seeded-relaunch': ['gemini', READY, ''],
  // Captured by this project with COLORTERM=truecolor: the input box is framed by half-block rows.
  'gemini-11-idle-truecolor': ['gemini', READY, ''],
  'gemini-12-typed-multiline-truecolor': ['gemini', READY, 'typed but not sent\nsecond line'],
  // Gemini's quota dialog ("Usage limit reached for <model>."): switch model or stop, a person answers.
  // Then for the main model: "Usage limit reached for all Pro models." with Keep trying / Stop.
  'gemini-14-limit-all-pro': ['gemini', { kind: 'selection', selectionKind: 'menu', title: '/model to switch models.', options: ['1. Keep trying', '2. Stop'], defaultIndex: 0 }, null],
  'gemini-13-usage-limit': ['gemini', { kind: 'selection', selectionKind: 'menu', title: '/model to switch models.', options: ['1. Switch to gemini-3.1-pro-preview-customtools', '2. Stop'], defaultIndex: 0 }, null],
};

function summary(s: ScreenState): Expect {
  if (s.kind !== 'selection') return s as Expect;
  return { kind: 'selection', selectionKind: s.selectionKind, dialog: s.dialog, title: s.title, options: s.options.map((o) => o.label), defaultIndex: s.defaultIndex };
}

describe('screen classification over every fixture', () => {
  const fixtures = readdirSync(DIR).filter((f) => /^(claude|codex|gemini)/.test(f));
  it('has an expectation for every CLI fixture on disk', () => {
    const bases = new Set(fixtures.map((f) => f.replace(/(\.esc)?\.txt$/, '')));
    expect([...bases].sort()).toEqual(Object.keys(TABLE).sort());
  });

  for (const [base, [cli, expected, composer]] of Object.entries(TABLE)) {
    for (const variant of ['.txt', '.esc.txt']) {
      it(`${base}${variant} → ${expected.kind}${expected.kind === 'selection' ? ` (${expected.dialog})` : ''}`, () => {
        const text = readFileSync(join(DIR, base + variant), 'utf8');
        const a = adapter(cli);
        expect(summary(a.classify(text))).toEqual(expected);
        expect(a.composerText(text)).toBe(composer);
      });
    }
  }
});

describe('selection ids', () => {
  it('are stable across redraws and plain/-e captures, and differ between dialogs', () => {
    const a = adapter('claude-code');
    const read = (n: string) => a.classify(readFileSync(join(DIR, n), 'utf8'));
    const p1 = read('claude-14-permission-prompt.txt');
    const p2 = read('claude-14-permission-prompt.esc.txt');
    const trust = read('claude-03-onboarding-after-security.txt');
    expect(p1.kind === 'selection' && p2.kind === 'selection' && p1.id === p2.id).toBe(true);
    expect(trust.kind === 'selection' && p1.kind === 'selection' && trust.id !== p1.id).toBe(true);
  });
});

describe('dialogs whose choices are key hints', () => {
  it("Claude's auto-mode dialog: each option carries the key its hint names", () => {
    const s = adapter('claude-code').classify(readFileSync(join(DIR, 'claude-27-auto-mode-cant-check.txt'), 'utf8'));
    expect(s.kind === 'selection' ? s.optionKeys : null).toEqual([[{ key: 'enter' }], [{ key: 'shift_tab' }], [{ key: 'esc' }]]);
  });
});

describe('not a selection', () => {
  it('Claude slash-command completion under a typed /exit is not a menu', () => {
    const s = adapter('claude-code').classify(readFileSync(join(DIR, 'claude-09-slash-exit-typed.txt'), 'utf8'));
    expect(s.kind).toBe('ready');
  });
  it("Gemini's numbered tips and Codex's numbered tool output are not menus", () => {
    expect(adapter('gemini').classify(readFileSync(join(DIR, 'gemini-05-reply.txt'), 'utf8')).kind).toBe('ready');
    expect(adapter('codex').classify(readFileSync(join(DIR, 'codex-15-tool-run.txt'), 'utf8')).kind).toBe('ready');
  });
  it('an empty screen is unknown for every CLI', () => {
    for (const id of ['claude-code', 'codex', 'gemini'] as const) expect(adapter(id).classify('\n\n\n').kind).toBe('unknown');
  });
});
