// Which CLIs the local console offers and which it starts by default (pure: the caller says what is on PATH).
import type { CliSpec, KnownCliId } from './cli-spec.js';

/** Coding CLIs in order of preference, each with the program that must be on PATH. A login shell is the fallback. */
export const DETECTABLE_CLIS: readonly { id: KnownCliId; program: string }[] = [
  { id: 'claude-code', program: 'claude' },
  { id: 'codex', program: 'codex' },
  { id: 'gemini', program: 'gemini' },
] as const;

/** The default CLI of the console when config names none: the first coding CLI found on PATH, else a login shell. */
export function defaultConsoleCli(onPath: (program: string) => boolean): CliSpec {
  return DETECTABLE_CLIS.find((c) => onPath(c.program))?.id ?? 'shell';
}

/** A CLI the console offers in its "new topic" form. `id` is what the page sends back. */
export interface CliChoice {
  id: string;
  label: string;
  spec: CliSpec;
}

export function cliLabel(spec: CliSpec): string {
  return typeof spec === 'string' ? spec : spec.command;
}

/**
 * The console's choices: its own default first, then what the bots are configured with, then every coding CLI on
 * PATH, then the shell (always there). Duplicates are dropped; ids are stable for one daemon run.
 */
export function consoleCliChoices(first: CliSpec, bots: readonly { cli: CliSpec }[], onPath: (program: string) => boolean): CliChoice[] {
  const specs: CliSpec[] = [first, ...bots.map((b) => b.cli), ...DETECTABLE_CLIS.filter((c) => onPath(c.program)).map((c) => c.id), 'shell'];
  const seen = new Set<string>();
  const out: CliChoice[] = [];
  for (const spec of specs) {
    const key = JSON.stringify(spec);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ id: `cli${out.length}`, label: cliLabel(spec), spec });
  }
  return out;
}
