// The slash commands each CLI owns: data, keyed by CLI id. A name here passes through to the CLI and wins over a daemon command.
import type { CliSpec, KnownCliId } from '../../shared/config.js';
import type { KeyName } from '../../shared/keys.js';

/**
 * From each CLI's own /help (Claude Code 2.x, Codex 0.17x, Gemini CLI 0.x). `help` is left out on purpose:
 * the bot's /help is how a chat user discovers everything, including these.
 */
export const CLI_SLASH_COMMANDS: Readonly<Record<KnownCliId, readonly string[]>> = {
  'claude-code': [
    'add-dir', 'agents', 'bashes', 'bug', 'clear', 'compact', 'config', 'context', 'cost', 'doctor', 'exit', 'export',
    'hooks', 'ide', 'init', 'login', 'logout', 'mcp', 'memory', 'model', 'output-style', 'permissions', 'plugin',
    'pr-comments', 'privacy-settings', 'release-notes', 'resume', 'review', 'rewind', 'security-review', 'status',
    'statusline', 'todos', 'upgrade', 'usage', 'vim',
  ],
  codex: [
    'model', 'approvals', 'permissions', 'review', 'new', 'resume', 'init', 'compact', 'undo', 'diff', 'mention',
    'status', 'mcp', 'logout', 'quit', 'exit', 'feedback', 'prompts',
  ],
  gemini: [
    'about', 'auth', 'bug', 'chat', 'clear', 'compress', 'copy', 'directory', 'docs', 'editor', 'extensions', 'ide',
    'init', 'mcp', 'memory', 'model', 'privacy', 'quit', 'exit', 'restore', 'settings', 'stats', 'theme', 'tools', 'vim',
  ],
  shell: [],
};

/** The CLI's slash commands for a bot: the table's (none for a custom CLI) plus per-bot extras. */
export function cliCommandSet(cli: CliSpec, extras: readonly string[] = []): ReadonlySet<string> {
  const base = typeof cli === 'string' ? CLI_SLASH_COMMANDS[cli] : [];
  return new Set([...base, ...extras].map((n) => n.replace(/^\//, '').toLowerCase()));
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
