// Which programs are shells, and the name a process shows for its program (pure): pane adoption and take-over readiness.

/** Names a shell's own process shows (argv[0], or tmux's `#{pane_current_command}`), once programName() normalised them. */
export const SHELL_NAMES: readonly string[] = ['bash', 'sh', 'zsh', 'fish', 'dash', 'ksh', 'mksh', 'tcsh', 'csh', 'ash', 'busybox', 'nu', 'xonsh', 'elvish'];

/** The program name a process runs: the word's base name (as node:path's posix basename), a login shell's leading `-` dropped. */
export function programName(word: string | undefined): string {
  if (!word) return '';
  const trimmed = word.length > 1 ? word.replace(/\/+$/, '') : word;
  return (trimmed.split('/').pop() ?? '').replace(/^-/, '');
}

/** Whether a (normalised) program name is a shell's. */
export function isShellName(name: string): boolean {
  return SHELL_NAMES.includes(name);
}
