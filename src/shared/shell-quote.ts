// Quoting for a POSIX shell, the one copy: the pane's `larkmux` wrapper, the launch file and the `sh -c` lines tmux runs.

/** Single-quotes a word for a POSIX shell (any byte but NUL survives, newlines included): `it's` → `'it'\''s'`. */
export function quoteShellArg(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
