// The slash commands each CLI owns: data, keyed by CLI id. A name here passes through to the CLI and wins over a daemon command.
import type { CliSpec, KnownCliId } from '../../shared/config.js';
import type { KeyName } from '../../shared/keys.js';

/**
 * From each CLI's own /help (Claude Code 2.x, Codex 0.17x, Gemini CLI 0.x), each checked against the pinned CLI by
 * test/e2e/cli-slash-commands.test.ts; what it rejects is not listed (Codex 0.171.0 answers "Unrecognized command" to
 * /approvals, /undo and /prompts; Claude Code 2.1.332 "Unknown" to /pr-comments, /todos and /vim; Gemini 0.61.0 sends
 * /restore to the model as a prompt unless checkpointing is on, so it is not listed).
 * `help` is left out on purpose: the bot's /help is how a chat user discovers everything, including these.
 */
export const CLI_SLASH_COMMANDS: Readonly<Record<KnownCliId, readonly string[]>> = {
  'claude-code': [
    'add-dir', 'agents', 'bashes', 'bug', 'clear', 'compact', 'config', 'context', 'cost', 'doctor', 'exit', 'export',
    'hooks', 'ide', 'init', 'login', 'logout', 'mcp', 'memory', 'model', 'output-style', 'permissions', 'plugin',
    'privacy-settings', 'release-notes', 'resume', 'review', 'rewind', 'security-review', 'status', 'statusline',
    'upgrade', 'usage',
  ],
  codex: [
    'model', 'permissions', 'review', 'new', 'resume', 'init', 'compact', 'diff', 'mention', 'status', 'mcp', 'logout',
    'quit', 'exit', 'feedback',
  ],
  gemini: [
    'about', 'auth', 'bug', 'chat', 'clear', 'compress', 'copy', 'directory', 'docs', 'editor', 'extensions', 'ide',
    'init', 'mcp', 'memory', 'model', 'privacy', 'quit', 'exit', 'settings', 'stats', 'theme', 'tools', 'vim',
  ],
  shell: [],
};

/** The CLI's slash commands for a bot: the table's (none for a custom CLI) plus per-bot extras. */
export function cliCommandSet(cli: CliSpec): ReadonlySet<string> {
  const base = typeof cli === 'string' ? CLI_SLASH_COMMANDS[cli] : [];
  return new Set(base.map((n) => n.replace(/^\//, '').toLowerCase()));
}

/**
 * The key /stop presses. Esc interrupts a turn in Claude Code, Codex and Gemini; Ctrl-C would quit Codex and
 * Gemini on an empty composer. A shell or a custom TUI gets the conventional Ctrl-C.
 */
export const STOP_KEY: Readonly<Record<KnownCliId | 'custom', KeyName>> = {
  'claude-code': 'esc',
  codex: 'esc',
  gemini: 'esc',
  shell: 'ctrl_c',
  custom: 'ctrl_c',
};

export function stopKeyFor(cli: CliSpec): KeyName {
  return STOP_KEY[typeof cli === 'string' ? cli : 'custom'];
}
