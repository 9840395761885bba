// Starts the session's web terminal (behind the daemon's proxy) and appends its write-connection audit entries.
import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DaemonToWorker } from '../../shared/ipc.js';
import type { Logger } from '../../platform/log.js';
import { larkmuxPaths } from '../../platform/paths.js';
import { WebTerminalServer } from '../webterm.js';
import { authorizeFromProxy } from '../webterm/authorize.js';

/** The bundled page: dist/web next to the built worker, or the repo's dist/web when running from source. */
export function webStaticDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, '..', '..', 'web'), join(here, '..', '..', '..', 'dist', 'web')];
  // src/web has an index.html too, but only a built folder has the bundle.
  return candidates.find((c) => existsSync(join(c, 'main.js'))) ?? candidates[0]!;
}

export type WebStart = { server: WebTerminalServer; port: number } | null;

/** null when the daemon runs no web proxy (no secret) or the pane is not in tmux (pty fallback). */
export async function startWebTerminal(init: Extract<DaemonToWorker, { type: 'init' }>, tmuxName: string | null, log: Logger): Promise<WebStart> {
  if (!init.webSecret || tmuxName === null) return null;
  const auditLog = larkmuxPaths(init.home).auditLog;
  const server = new WebTerminalServer({
    tmuxSocket: init.tmuxSocket,
    tmuxName,
    sessionId: init.sessionId,
    staticDir: webStaticDir(),
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
  const res = await server.start();
  if (!res.ok) {
    log.error({ code: res.code, message: res.message }, 'web terminal did not start');
    return null;
  }
  return { server, port: res.port };
}
