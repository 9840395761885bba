// The web terminals of one host's workers as this machine reaches them: each worker serves its terminal on a unix
// socket on the host (nothing listens there on TCP), and the daemon adds an OpenSSH stream-local forward on the host's
// ControlMaster from a socket in its own run folder to it. Made on the first web visit, cancelled when the worker goes
// or the link drops; a worker started after a reconnect gets a new one on its first visit.
import { existsSync, lstatSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Logger } from '../../platform/log.js';
import { socketForwardArgv, type SshPlaces } from '../../platform/ssh/ssh-argv.js';
import { ensureSocketFolder, runProcess } from '../../platform/ssh/ssh-run.js';
import type { HostConfig } from '../../shared/host-config.js';

/** Longest local socket path handed to ssh: sun_path holds 108 bytes with its NUL (ssh binds this very path). */
export const MAX_FORWARD_SOCKET_PATH = 100;

/** The local end of a session's forward: run/web-fwd-<id8>.sock, or in the ssh fallback folder when that is too long. */
export function forwardSocketPath(places: Pick<SshPlaces, 'runDir' | 'fallbackRunDir'>, sessionId: string): string {
  const file = `web-fwd-${sessionId.slice(0, 8)}.sock`;
  const inRun = join(places.runDir, file);
  return Buffer.byteLength(inRun) <= MAX_FORWARD_SOCKET_PATH ? inRun : join(places.fallbackRunDir, file);
}

interface Forward {
  local: string;
  remote: string;
  made: Promise<string | null>;
}

export class RemoteWebForwards {
  private readonly forwards = new Map<string, Forward>();
  /** Cancels still under way, by local path: a new forward on the same path waits for them (else one could undo it). */
  private readonly cancelling = new Map<string, Promise<void>>();

  constructor(private readonly opts: { host: HostConfig; places: SshPlaces; log: Logger; sshEnv?: NodeJS.ProcessEnv }) {}

  /** The local socket that reaches `remote` (the session's worker's socket on the host); null when none can be made. */
  reach(sessionId: string, remote: string): Promise<string | null> {
    const have = this.forwards.get(sessionId);
    // The same worker's socket, and the master still holds the local end: reused. A master that went away took it along.
    if (have && have.remote === remote) {
      return have.made.then((local) => (local && existsSync(local) ? local : this.remake(sessionId, have)));
    }
    if (have) this.cancel(sessionId);
    const local = forwardSocketPath(this.opts.places, sessionId);
    const f: Forward = { local, remote, made: this.add(local, remote) };
    this.forwards.set(sessionId, f);
    return f.made;
  }

  private remake(sessionId: string, stale: Forward): Promise<string | null> {
    if (this.forwards.get(sessionId) === stale) this.forwards.delete(sessionId);
    return this.reach(sessionId, stale.remote);
  }

  private async add(local: string, remote: string): Promise<string | null> {
    await this.cancelling.get(local);
    const argv = socketForwardArgv(this.opts.host, this.opts.places, 'forward', local, remote);
    if (!argv) {
      this.opts.log.warn({ local, remote }, 'web terminal forward not made: a socket path ssh cannot take');
      return null;
    }
    // The same forward may still be on the master (a daemon that stopped before its cancel ran): the master would
    // answer "exists" without binding again, so it is cancelled first; then a leftover file, which ssh will not bind
    // over, is removed. Both are harmless when there is nothing to undo.
    const cancel = socketForwardArgv(this.opts.host, this.opts.places, 'cancel', local, remote);
    if (cancel) await runProcess('ssh', cancel, { timeoutMs: 15_000, env: this.opts.sshEnv });
    try {
      ensureSocketFolder(dirname(local));
      removeSocket(local);
    } catch (err) {
      this.opts.log.warn({ err: (err as Error).message }, 'web terminal forward not made');
      return null;
    }
    const res = await runProcess('ssh', argv, { timeoutMs: 15_000, env: this.opts.sshEnv });
    if (res.code !== 0) {
      // ssh's words stay in the log only (they name paths, never secrets); the browser gets the proxy's 503 page.
      this.opts.log.warn({ code: res.code, stderr: res.stderr.trim().slice(0, 500), timedOut: res.timedOut }, 'web terminal forward on the ssh link failed');
      return null;
    }
    this.opts.log.info({ local }, 'web terminal forward on the ssh link made');
    return local;
  }

  /** The session's worker is gone: its forward is cancelled on the master and the local socket removed. */
  cancel(sessionId: string): void {
    const f = this.forwards.get(sessionId);
    if (!f) return;
    this.forwards.delete(sessionId);
    const done = f.made.then(async (local) => {
      const argv = local ? socketForwardArgv(this.opts.host, this.opts.places, 'cancel', f.local, f.remote) : undefined;
      // The master may be gone with the link already: then nothing holds the forward, and the answer does not matter.
      if (argv) await runProcess('ssh', argv, { timeoutMs: 15_000, env: this.opts.sshEnv });
      removeSocket(f.local);
    });
    const settled = done.finally(() => {
      if (this.cancelling.get(f.local) === settled) this.cancelling.delete(f.local);
    });
    this.cancelling.set(f.local, settled);
  }

  /** Every forward of the host (the link dropped, or the daemon stops). */
  cancelAll(): void {
    for (const id of [...this.forwards.keys()]) this.cancel(id);
  }
}

/** Removes a socket file at `path` (nothing else: a file someone put there is left alone and ssh's bind says so). */
function removeSocket(path: string): void {
  try {
    if (lstatSync(path, { throwIfNoEntry: false })?.isSocket()) unlinkSync(path);
  } catch {
    // gone already
  }
}
