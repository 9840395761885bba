// Classifies a chat message as a prompt, a daemon command or a CLI-owned slash command: a pure function over name sets.

export type Classified =
  | { kind: 'prompt'; text: string }
  | { kind: 'daemon'; name: string; args: string }
  | { kind: 'cli'; name: string; text: string };

export interface CommandSets {
  daemon: ReadonlySet<string>;
  cli: ReadonlySet<string>;
}

/** `/lmx <command> …` always reaches the daemon, even when the CLI owns a command of the same name (e.g. /status). */
export const DAEMON_PREFIX = 'lmx';

/** The CLI reads a slash command from its one-line composer; longer or multi-line text goes in as a prompt. */
export const CLI_COMMAND_MAX = 4096;

const SLASH = /^\/([A-Za-z][A-Za-z0-9_-]*)(?:\s+([\s\S]*))?$/;

/** Owners in order of precedence: a CLI command wins over a daemon command of the same name. */
const PRECEDENCE = ['cli', 'daemon'] as const;

export function classifyText(input: string, sets: CommandSets): Classified {
  const text = input.trim();
  // `//x` is the escape for sending `/x` literally.
  if (text.startsWith('//')) return { kind: 'prompt', text: text.slice(1) };
  const m = SLASH.exec(text);
  if (!m) return { kind: 'prompt', text };
  const name = m[1]!.toLowerCase();
  const rest = (m[2] ?? '').trim();
  if (name === DAEMON_PREFIX) {
    const inner = SLASH.exec(`/${rest}`);
    const innerName = inner?.[1]?.toLowerCase();
    if (innerName && sets.daemon.has(innerName)) return { kind: 'daemon', name: innerName, args: (inner?.[2] ?? '').trim() };
    return { kind: 'daemon', name: 'help', args: '' };
  }
  const fitsComposer = text.length <= CLI_COMMAND_MAX && !text.includes('\n');
  const owner = PRECEDENCE.find((o) => (o === 'cli' ? fitsComposer && sets.cli.has(name) : sets.daemon.has(name)));
  if (owner === 'cli') return { kind: 'cli', name, text };
  if (owner === 'daemon') return { kind: 'daemon', name, args: rest };
  return { kind: 'prompt', text };
}
