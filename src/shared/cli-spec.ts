// Which CLI a session runs: a known adapter id or a custom program (part of config.json and of the worker's init).
import { z } from 'zod';

/** Adapter ids the worker knows; `custom` is written as an object (command + patterns). */
export const CLI_IDS = ['claude-code', 'codex', 'gemini', 'shell'] as const;
export const CliIdSchema = z.enum(CLI_IDS);
export type KnownCliId = z.infer<typeof CliIdSchema>;

export const CustomCliSchema = z.strictObject({
  command: z.string().min(1).describe('Program to run (looked up on PATH)'),
  args: z.array(z.string()).default([]).describe('Arguments, passed as an argv (no shell)'),
  readyPattern: z.string().min(1).describe('Regex that matches the screen when the program waits for input'),
  busyPattern: z.string().optional().describe('Regex that matches the screen while the program works'),
});
export type CustomCli = z.infer<typeof CustomCliSchema>;

export const CliSpecSchema = z.union([CliIdSchema, CustomCliSchema]);
export type CliSpec = z.infer<typeof CliSpecSchema>;

/**
 * What a CLI does with the text typed into it. `prompt`: a model reads it (Claude Code, Codex, Gemini). `program`: the
 * program runs it as it stands (a shell, a custom command): every word typed there is a command, so only what the
 * person wrote may be typed, never text they did not write (a quoted message, a file's name, a note).
 */
export type CliInput = 'prompt' | 'program';

export const CLI_INPUT = {
  'claude-code': 'prompt',
  codex: 'prompt',
  gemini: 'prompt',
  shell: 'program',
} as const satisfies Record<KnownCliId, CliInput>;

/** A custom program is assumed to run what it is given: nothing is known about it. */
export function cliInputOf(spec: CliSpec): CliInput {
  return typeof spec === 'string' ? CLI_INPUT[spec] : 'program';
}

/**
 * Whether text typed (and Entered) while the CLI works reaches the model as its own prompt without ending the turn:
 * Claude Code queues it ("Queued · ctrl+x ctrl+s to send now") and hands it to the model at its next step; Codex
 * takes it as a message for the running task. Gemini drops or merges it; a shell or a custom program would run it as
 * a command. Only these CLIs would offer "Steer now" on a message that waits (issue 30 item 4) — but none does yet:
 * in a real Claude Code run the steered text never showed up as a user record in its transcript within 240 s, so its
 * delivery cannot be proved (the card would say "failed" for a prompt the model may have read), and Codex's was never
 * tried on the real CLI. The chat is told the truth: until a transcript proves it, a waiting message offers only
 * "Interrupt and send". The steer path stays tested below the table (input-machine, delivery).
 */
export const CLI_STEERS = {
  'claude-code': false,
  codex: false,
  gemini: false,
  shell: false,
} as const satisfies Record<KnownCliId, boolean>;

/** A custom program is never steered: nothing is known about what it does with typed text while it works. */
export function cliSteersOf(spec: CliSpec): boolean {
  return typeof spec === 'string' ? CLI_STEERS[spec] : false;
}
