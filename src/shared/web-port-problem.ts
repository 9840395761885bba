// The words for a web port larkmux could not listen on: who holds it and which setting to change (issue 31 item 12).

/** The process listening on a port (found by src/platform/port-holder.ts). */
export interface PortHolder {
  pid: number;
  /** Its command line, shortened. */
  command: string;
}

/** A larkmux daemon's command line (built, or from source through tsx). */
const LARKMUX_DAEMON = /daemon[/\\]main\.[jt]s\b/;

/** What `webPortProblem` says first; `larkmux start` of earlier versions looks for it. */
const WEB_OFF = 'web terminal off: ';

/** The fix for a taken port, as the daemon's problem and `doctor` word it (each goes on in its own words). */
export const FREE_PORT_FIX = 'set web.port in config.json to a free port (0 = any free port)';

/** Whether a listen error says another socket holds the port. */
export const portTaken = (err: { message: string }): boolean => /EADDRINUSE/.test(err.message);

/** "pid 4242 (python3 -m http.server)", "another larkmux daemon, pid …", or "another program" when nobody could be named. */
export function describeHolder(holder: PortHolder | null): string {
  if (!holder) return 'another program (this user cannot see which: it may belong to another user)';
  const what = holder.command ? `pid ${holder.pid} (${holder.command})` : `pid ${holder.pid}`;
  return LARKMUX_DAEMON.test(holder.command) ? `another larkmux daemon, ${what}; a second LARKMUX_HOME?` : what;
}

/**
 * Why the web terminal is off, from the listen error: a taken port names its holder; every case names the setting.
 * Starts with "web terminal off:", which `larkmux start` of earlier versions looks for. The holder may be a lookup,
 * made only when the port is taken (finding it reads every process's file descriptors).
 */
export function webPortProblem(err: { message: string }, host: string, port: number, holder: PortHolder | null | (() => PortHolder | null)): string {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (portTaken(err)) {
    const who = typeof holder === 'function' ? holder() : holder;
    return `${WEB_OFF}port ${port} on ${host} is already in use by ${describeHolder(who)}; ${FREE_PORT_FIX}, or stop that program`;
  }
  if (/EACCES/.test(err.message)) return `${WEB_OFF}not allowed to listen on ${where} (ports below 1024 need privileges); set web.port in config.json to 1024 or above`;
  if (/EADDRNOTAVAIL|ENOTFOUND/.test(err.message)) return `${WEB_OFF}${host} is not an address of this machine; set web.host in config.json (127.0.0.1 for this machine only)`;
  return `${WEB_OFF}cannot listen on ${where} (${err.message}); check web.host and web.port in config.json`;
}

/** A web problem without its "web terminal off:" opening, for a line that says what is off in its own words. */
export const webProblemReason = (problem: string): string => (problem.startsWith(WEB_OFF) ? problem.slice(WEB_OFF.length) : problem);
