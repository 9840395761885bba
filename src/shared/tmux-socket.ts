// Which tmux server a LARKMUX_HOME uses: `tmux.socket` when set, else one derived from the home (DESIGN §11), so two
// homes on one machine never list, prune or attach each other's sessions. Daemon, workers, doctor and the CLI all ask here.

/** Prefix of derived socket names; the rest is a short hash of the resolved home folder. */
export const DERIVED_SOCKET_PREFIX = 'lmx-' as const;

/** FNV-1a (32 bit): stable across Node versions and machines, no dependency; collisions between a user's homes are negligible. */
function fnv1a32(text: string): string {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** The tmux `-L` socket name for this home: the configured one, or `lmx-<hash of the resolved home>`. */
export function tmuxSocketName(configured: string | null | undefined, resolvedHome: string): string {
  return configured ?? `${DERIVED_SOCKET_PREFIX}${fnv1a32(resolvedHome)}`;
}

/** How a person looks at a session on that server by hand. */
export function tmuxAttachHint(socket: string, session = '<name>'): string {
  return `tmux -L ${socket} attach -t ${session}`;
}
