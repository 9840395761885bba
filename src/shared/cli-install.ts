// Which program each CLI adapter runs and the exact command that installs it: one table for the worker's pre-launch
// check (the chat card), `larkmux doctor` and `larkmux setup`, so all three name the same fix.
import type { CliSpec, KnownCliId } from './config.js';

export interface CliInstall {
  /** The program looked up on PATH. */
  program: string;
  /** What to run to install it (empty when the system provides it). */
  install: string;
}

export const CLI_INSTALL: Readonly<Record<KnownCliId, CliInstall>> = {
  'claude-code': { program: 'claude', install: 'npm install -g @anthropic-ai/claude-code' },
  codex: { program: 'codex', install: 'npm install -g @openai/codex' },
  gemini: { program: 'gemini', install: 'npm install -g @google/gemini-cli' },
  shell: { program: '/bin/bash', install: 'apt-get install bash' },
};

/** The program a bot's `cli` runs and how to get it; a custom command is installed however its author says. */
export function cliInstallFor(cli: CliSpec): CliInstall {
  if (typeof cli === 'string') return CLI_INSTALL[cli];
  return { program: cli.command, install: `install ${cli.command}, or fix cli.command in config.json` };
}
