// The tmux server options larkmux sets on the server its CLIs run in: what a supported CLI asks of tmux, and nothing
// else (a person's own server, when tmux.socket names it, is changed only by these). Measured on the pinned CLIs:
// - Claude Code 2.1.332 runs `tmux show -gv focus-events` at start and, when it is off, shows "tmux focus-events off ·
//   add 'set -g focus-events on' to ~/.tmux.conf and reattach for focus tracking" under its prompt, so on every card.
//   With it on, tmux passes focus in/out (CSI I / CSI O) to a program that asked for them (mode 1004) — only when a
//   client attaches, detaches or switches, which for larkmux's panes is the web terminal.
// Not set: `extended-keys` (Claude names it only in its /terminal-setup advice for Shift+Enter; it would change the
// sequences tmux sends for keys larkmux types), `allow-passthrough` (Claude and Codex want it only to draw images
// through to an outer terminal, and larkmux's screenshots and web terminal draw none).
export const TMUX_SERVER_OPTIONS = [
  { name: 'focus-events', value: 'on' },
] as const;

/** `set-option -s` commands for a tmux chain, e.g. right after the new-session that may have started the server. */
export function serverOptionCommands(): string[][] {
  return TMUX_SERVER_OPTIONS.map((o) => ['set-option', '-s', o.name, o.value]);
}
