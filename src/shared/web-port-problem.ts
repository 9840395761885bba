// The words for a web port larkmux could not listen on: who holds it and which setting to change (issue 31 item 12).

export interface PortHolderInfo {
  pid: number;
  command: string;
}

/** A larkmux daemon's command line (built, or from source through tsx). */
const LARKMUX_DAEMON = /daemon[/\\]main\.[jt]s\b/;

/** "pid 4242 (python3 -m http.server)", "another larkmux daemon, pid …", or "another program" when nobody could be named. */
export function describeHolder(holder: PortHolderInfo | null): string {
  if (!holder) return 'another program (this user cannot see which: it may belong to another user)';
  const what = holder.command ? `pid ${holder.pid} (${holder.command})` : `pid ${holder.pid}`;
  return LARKMUX_DAEMON.test(holder.command) ? `another larkmux daemon, ${what}; a second LARKMUX_HOME?` : what;
}

/**
 * Why the web terminal is off, from the listen error: a taken port names its holder; every case names the setting.
 * Starts with "web terminal off:", which `larkmux start` of earlier versions looks for.
 */
export function webPortProblem(err: { message: string }, host: string, port: number, holder: PortHolderInfo | null): string {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (/EADDRINUSE/.test(err.message)) {
    return `web terminal off: port ${port} on ${host} is already in use by ${describeHolder(holder)}; set web.port in config.json to a free port (0 = any free port), or stop that program`;
  }
  if (/EACCES/.test(err.message)) return `web terminal off: not allowed to listen on ${where} (ports below 1024 need privileges); set web.port in config.json to 1024 or above`;
  if (/EADDRNOTAVAIL|ENOTFOUND/.test(err.message)) return `web terminal off: ${host} is not an address of this machine; set web.host in config.json (127.0.0.1 for this machine only)`;
  return `web terminal off: cannot listen on ${where} (${err.message}); check web.host and web.port in config.json`;
}
