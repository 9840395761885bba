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

/**
 * The tmux server sessions lived on before a socket per home (DESIGN §11): tmux's own default server, whose `-L` name
 * is `default`. Tests point LARKMUX_LEGACY_TMUX_SOCKET at an isolated server so they never touch a person's real one.
 */
export const LEGACY_TMUX_SOCKET = 'default' as const;

/**
 * Where sessions from before the per-home socket may still run, or null when there is no such place: a configured
 * `tmux.socket` was always used as is, so only homes that rely on the derived name have a legacy server to look at.
 */
export function legacyTmuxSocket(configured: string | null | undefined, env: Readonly<Record<string, string | undefined>>): string | null {
  if (configured) return null;
  return env.LARKMUX_LEGACY_TMUX_SOCKET || LEGACY_TMUX_SOCKET;
}

/**
 * Pure: the names this home's open sessions own that run on the legacy server and not on the home's own, i.e. the
 * sessions that must be served where they are (a session cannot move between tmux servers; a new CLI on the home
 * server would start a second conversation while the first kept running unseen).
 */
export function sessionsOnLegacyServer(owned: ReadonlySet<string>, onHome: readonly string[], onLegacy: readonly string[]): string[] {
  const home = new Set(onHome);
  return onLegacy.filter((n) => owned.has(n) && !home.has(n)).sort();
}
