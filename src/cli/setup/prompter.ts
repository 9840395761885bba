// Line-by-line questions on a stream: works on a terminal (secret answers not echoed) and on piped input alike.
import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

export interface Prompter {
  /** Asks and returns the answer (trimmed), or null when the input ended. `secret` hides typing on a terminal. */
  ask(question: string, opts?: { secret?: boolean }): Promise<string | null>;
  /** Calls `listener` on Ctrl+C typed into a terminal (readline would otherwise just close); returns the remover. */
  onInterrupt(listener: () => void): () => void;
  dispose(): void;
}

export function createPrompter(input: Readable & { isTTY?: boolean }, output: Writable): Prompter {
  // Lines are queued as they arrive: piped input can deliver every answer before the first question is asked.
  const lines: string[] = [];
  const waiters: Array<(line: string | null) => void> = [];
  let ended = false;
  let muted = false;
  const rl: Interface = createInterface({ input, output, terminal: !!input.isTTY });
  const rlOut = rl as unknown as { _writeToOutput?: (s: string) => void };
  const write = rlOut._writeToOutput?.bind(rl);
  if (write) {
    // While a secret is typed on a terminal, readline's echo is swallowed (the prompt itself was written before).
    rlOut._writeToOutput = (s: string) => {
      if (!muted) write(s);
      else if (s.includes('\n')) write('\n');
    };
  }
  rl.on('line', (line) => {
    const w = waiters.shift();
    if (w) w(line);
    else lines.push(line);
  });
  rl.on('close', () => {
    ended = true;
    for (const w of waiters.splice(0)) w(null);
  });
  return {
    async ask(question, opts = {}) {
      output.write(question);
      muted = !!opts.secret && !!input.isTTY;
      const line = lines.length ? lines.shift()! : ended ? null : await new Promise<string | null>((resolve) => waiters.push(resolve));
      muted = false;
      // Piped answers are not echoed by anyone: end the prompt's line so the transcript stays readable.
      if (!input.isTTY) output.write('\n');
      return line === null ? null : line.trim();
    },
    onInterrupt(listener) {
      rl.on('SIGINT', listener);
      return () => rl.off('SIGINT', listener);
    },
    dispose() {
      rl.close();
    },
  };
}
