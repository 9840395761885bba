// Starts the session's web terminal (behind the daemon's proxy) and appends its write-connection audit entries.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DaemonToWorker } from '../../shared/ipc.js';
import type { Logger } from '../../platform/log.js';
import { larkmuxPaths } from '../../platform/paths.js';
import { ensureSocketFolder } from '../../platform/ssh/ssh-run.js';
import { WebTerminalServer } from '../webterm.js';
import { authorizeFromProxy } from '../webterm/authorize.js';

/** The page's files in the worker bundle are named with this prefix (scripts/build-worker.mjs): the bundle is flat. */
export const BUNDLED_PAGE_PREFIX = 'web-';

/**
 * The bundled page: dist/web next to the built worker, or the repo's dist/web when running from source; on another
 * host, where only the worker bundle is, the copy of the page inside it (its files `web-*`).
 */
export function webStatic(): { dir: string; prefix: string } {
  const here = dirname(fileURLToPath(import.meta.url));
  // A host's copy (bundles/<sha>) is not inside a worker/ folder: what lies two levels up there is the user's, never ours.
  if (basename(dirname(here)) !== 'worker') return { dir: here, prefix: BUNDLED_PAGE_PREFIX };
  const candidates = [join(here, '..', '..', 'web'), join(here, '..', '..', '..', 'dist', 'web')];
  // src/web has an index.html too, but only a built folder has the bundle.
  return { dir: candidates.find((c) => existsSync(join(c, 'main.js'))) ?? candidates[0]!, prefix: '' };
}

/** Room a socket path has: sun_path holds 108 bytes with its NUL; sshd connects to it by this very path. */
export const MAX_WEB_SOCKET_PATH = 100;

/**
 * Where a worker's web terminal socket lives: `run/web-<id8>.sock` under larkmux's folder, or, when that path is too
 * long for a unix socket, the same name in a 0700 folder of this user's in the temp folder (named by the home).
 */
export function webSocketPath(home: string, sessionId: string): string {
  const file = `web-${sessionId.slice(0, 8)}.sock`;
  const inRun = join(larkmuxPaths(home).run, file);
  if (Buffer.byteLength(inRun) <= MAX_WEB_SOCKET_PATH) return inRun;
  const tag = createHash('sha256').update(home).digest('hex').slice(0, 10);
  return join(tmpdir(), `lmx-web-${process.getuid?.() ?? 0}-${tag}`, file);
}

export type WebStart = { server: WebTerminalServer; port: number; socketPath?: string } | null;

/** null when the daemon runs no web proxy (no secret) or the pane is not in tmux (pty fallback). */
export async function startWebTerminal(init: Extract<DaemonToWorker, { type: 'init' }>, tmuxName: string | null, log: Logger): Promise<WebStart> {
  if (!init.webSecret || tmuxName === null) return null;
  const auditLog = larkmuxPaths(init.home).auditLog;
  const page = webStatic();
  const server = new WebTerminalServer({
    tmuxSocket: init.tmuxSocket,
    tmuxName,
    sessionId: init.sessionId,
    staticDir: page.dir,
    staticPrefix: page.prefix,
    authorize: authorizeFromProxy(init.webSecret),
    audit: (entry) => {
      try {
        mkdirSync(dirname(auditLog), { recursive: true, mode: 0o700 });
        appendFileSync(auditLog, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
      } catch (err) {
        log.error({ err }, 'audit entry not written');
      }
    },
    log,
  });
  if (init.webUnix) {
    const path = webSocketPath(init.home, init.sessionId);
    let res: Awaited<ReturnType<WebTerminalServer['startOnSocket']>>;
    try {
      ensureSocketFolder(dirname(path));
      res = await server.startOnSocket(path);
    } catch (err) {
      res = { ok: false, code: 'listen_failed', message: (err as Error).message };
    }
    if (!res.ok) {
      log.error({ code: res.code, message: res.message }, 'web terminal did not start');
      return null;
    }
    return { server, port: 0, socketPath: res.socketPath };
  }
  const res = await server.start();
  if (!res.ok) {
    log.error({ code: res.code, message: res.message }, 'web terminal did not start');
    return null;
  }
  return { server, port: res.port };
}
