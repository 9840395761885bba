// The environment policy, in one place (DESIGN §11): what a worker inherits, what a tmux client and a CLI get.
// Pure: callers pass the environment in. Like VS Code's pty host, nothing is inherited by default; this lists what is.

export const ENV_POLICY = {
  /**
   * Passed from the daemon to its workers, and from there to tmux and the CLIs: what a program needs to find its
   * tools, files, language and network — none of it a credential larkmux knows about. Everything else (API keys,
   * the app secret under any name, cloud credentials) stays with the daemon; a CLI's own keys go in the bot's `env`.
   */
  inheritedNames: [
    'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TZ', 'TMPDIR', 'TERM', 'COLORTERM',
    'XDG_RUNTIME_DIR', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME',
    'FONTCONFIG_FILE', 'FONTCONFIG_PATH', 'TMUX_TMPDIR',
    // Corporate networks: without these a CLI cannot reach its model API.
    'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'no_proxy', 'all_proxy',
    'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR',
    // git over ssh from inside a session: a socket path, not a secret (anyone who can talk runs commands as this user).
    'SSH_AUTH_SOCK',
  ],
  /** Locale categories (LC_ALL, LC_CTYPE, …). */
  inheritedPrefixes: ['LC_'],
  /** larkmux's own settings a worker reads; never passed on to tmux or a CLI. */
  workerOnlyNames: ['LARKMUX_HOME', 'LARKMUX_LOG_LEVEL', 'LARKMUX_SESSION_ID'],
  /** Never from a bot's `env` either: larkmux's own prefixes, and tmux's pane identity. */
  reservedPrefixes: ['LARKMUX_', 'LARK_'],
  /** tmux sets these for every process it starts (larkmux's private server and pane): unset before a CLI starts too. */
  reservedNames: ['TMUX', 'TMUX_PANE'],
} as const;

/** An environment variable's name as a POSIX shell's `export` takes it: letters, digits and `_`, not starting with a digit. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

type Env = Readonly<Record<string, string | undefined>>;

export function isInherited(name: string): boolean {
  return (ENV_POLICY.inheritedNames as readonly string[]).includes(name) || ENV_POLICY.inheritedPrefixes.some((p) => name.startsWith(p));
}

function pick(env: Env, keep: (name: string) => boolean, drop: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && keep(k) && !drop.includes(k)) out[k] = v;
  return out;
}

/**
 * What a forked worker gets: the inherited names and larkmux's worker settings. `scrub` names (the variables a
 * `${…}` in config.json names) are dropped even when listed, so a secret never travels under an ordinary name.
 */
export function workerEnv(daemonEnv: Env, scrub: readonly string[] = []): Record<string, string> {
  return withCharacterLocale(pick(daemonEnv, (k) => isInherited(k) || (ENV_POLICY.workerOnlyNames as readonly string[]).includes(k), scrub));
}

/**
 * The locale a worker's tmux, shells and CLIs read characters in when the environment names none. Without one (a
 * daemon run by a bare service unit, a worker on a host: sshd passes no LANG to a command) bash reads each byte of
 * a CJK or emoji character as a Meta key — typed text turned into editing commands — and tmux writes tabs as `_`.
 * C.UTF-8 changes only the character set (messages, collation and dates stay C) and exists on every current glibc
 * (built in since 2.35; Debian and Ubuntu ship it) and on musl, where every locale is UTF-8.
 */
export const FALLBACK_LOCALE = 'C.UTF-8';

/** `env` with LANG set to FALLBACK_LOCALE when none of LC_ALL, LC_CTYPE and LANG says which characters to read. */
export function withCharacterLocale(env: Record<string, string>): Record<string, string> {
  const named = ['LC_ALL', 'LC_CTYPE', 'LANG'].some((k) => (env[k] ?? '').trim() !== '');
  return named ? env : { ...env, LANG: FALLBACK_LOCALE };
}

/**
 * The base every CLI (and any tmux server larkmux starts) gets before its bot's `env`: the inherited names only. The
 * render process gets the same (it reads font files and draws; no credential, none of larkmux's settings).
 */
export function cliBaseEnv(env: Env): Record<string, string> {
  return pick(env, isInherited);
}

/** The one environment for a tmux client a worker or the daemon runs; `term` for an interactive attach client. */
export function tmuxClientEnv(env: Env, opts: { term?: string } = {}): Record<string, string> {
  const out = cliBaseEnv(env);
  if (opts.term) out.TERM = opts.term;
  return out;
}

/**
 * Which config-named variables the daemon removes from its own environment once config.json is read: all of them
 * except the inherited, non-secret names (a `"${HOME}/code"` must not take HOME away from everything).
 */
export function namesToScrub(configEnvNames: readonly string[]): string[] {
  return configEnvNames.filter((n) => !isInherited(n));
}

export function isReservedEnvKey(key: string): boolean {
  return (ENV_POLICY.reservedNames as readonly string[]).includes(key) || ENV_POLICY.reservedPrefixes.some((p) => key.startsWith(p));
}

/**
 * Names to unset before a CLI starts in tmux: those a tmux server's global environment holds (`show-environment -g`
 * output) that are neither inherited nor the bot's own. A server someone else started may carry anything.
 */
export function namesToUnset(showEnvironmentOutput: string, botEnv: Readonly<Record<string, string>>): string[] {
  const names = new Set<string>();
  for (const line of showEnvironmentOutput.split('\n')) {
    // `NAME=value`; a line without `=` (`-NAME`: a name tmux removes) names nothing to unset.
    const eq = line.indexOf('=');
    const name = eq < 0 ? '' : line.slice(0, eq);
    if (ENV_NAME.test(name) && !isInherited(name) && !(name in botEnv)) names.add(name);
  }
  return [...names].sort();
}
