// Any TUI from config: a command plus ready/busy regexes; no dialogs, no transcript, screen-only status.
import type { CustomCli } from '../../shared/config.js';
import { PANE_DEAD, stripAnsi } from './screen.js';
import type { AdapterResult, CliAdapter, ScreenState } from './types.js';
import { LITERAL_TEXT } from './literal-text.js';
import { cliInputOf } from '../../shared/cli-spec.js';

function compile(source: string, field: string): { ok: true; re: RegExp } | { ok: false; message: string } {
  try {
    return { ok: true, re: new RegExp(source, 'm') };
  } catch (e) {
    return { ok: false, message: `cli.${field}: not a valid regular expression (${(e as Error).message})` };
  }
}

export function classifyCustom(screenText: string, ready: RegExp, busy: RegExp | null): ScreenState {
  const text = stripAnsi(screenText);
  if (PANE_DEAD.test(text)) return { kind: 'exited' };
  if (busy?.test(text)) return { kind: 'busy' };
  if (ready.test(text)) return { kind: 'ready' };
  return { kind: 'unknown' };
}

export function customAdapter(spec: CustomCli): AdapterResult {
  const ready = compile(spec.readyPattern, 'readyPattern');
  if (!ready.ok) return { ok: false, code: 'bad_pattern', message: ready.message };
  let busy: RegExp | null = null;
  if (spec.busyPattern) {
    const b = compile(spec.busyPattern, 'busyPattern');
    if (!b.ok) return { ok: false, code: 'bad_pattern', message: b.message };
    busy = b.re;
  }
  const adapter: CliAdapter = {
    id: 'custom',
    displayName: spec.command,
    launch: (ctx) => ({
      argv: [...(ctx.command ?? [spec.command]), ...spec.args, ...(ctx.extraArgs ?? [])],
      env: { HOME: ctx.home, ...ctx.botEnv },
    }),
    // Unknown program: paste, give it time before Enter, and let the input machine verify by screen. With no known
    // input box, a line break the program prints after Enter (a REPL's echo) is taken as proof it got the line.
    submit: { method: 'paste', enterDelayMs: 300, typeAheadWhileBusy: false, newlineProvesEnter: true },
    literal: LITERAL_TEXT.custom,
    input: cliInputOf(spec),
    nativeId: { kind: 'none' },
    classify: (screen) => classifyCustom(screen, ready.re, busy),
    composerText: () => null,
    choiceKeys: () => [],
    startupDefaults: [],
    // An unknown program may put something up after its prompt first matched: its prompt must hold before typing.
    lateStartupDialogs: true,
    seedFiles: () => [],
    transcript: null,
  };
  return { ok: true, adapter };
}
