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
 * Whether text typed (and Entered) while the CLI works reaches the model without ending the turn, with a transcript
 * record that proves it (measured; docs/architecture.md "CLI facts"). Claude Code 2.1.332 queues it ("Queued · ctrl+x
 * ctrl+s to send now") and hands it to the model beside the next tool result, recording a `queued_command` attachment
 * with the exact text; with no tool call left it runs as the next prompt, an ordinary user record. Codex 0.171 holds it
 * ("Messages to be submitted after next tool call") and submits it after the next tool output as a UserMessage of the
 * running turn. transcript/ reads both as proofs. Gemini drops or merges it, and a shell or a custom program would run
 * it as a command: they offer only "Interrupt and send" on a waiting message (issue 30 item 4).
 */
export const CLI_STEERS = {
  'claude-code': true,
  codex: true,
  gemini: false,
  shell: false,
} as const satisfies Record<KnownCliId, boolean>;

/** A custom program is never steered: nothing is known about what it does with typed text while it works. */
export function cliSteersOf(spec: CliSpec): boolean {
  return typeof spec === 'string' ? CLI_STEERS[spec] : false;
}
