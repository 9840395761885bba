// Every pane on larkmux's tmux server with its tty and first process, for finding (and later adopting) panes.
import { execFile } from 'node:child_process';
import { tmuxArgs, tmuxEnv } from '../orphans.js';
import { PANE_LIST_FORMAT, parsePaneList, type PaneInfo } from './pane-identity.js';
import { ttyDeviceOf } from './process-facts.js';

export type PaneList = { ok: true; panes: PaneInfo[] } | { ok: false; message: string };

export function listPanes(socket: string | null): Promise<PaneList> {
  return new Promise((resolve) => {
    execFile('tmux', tmuxArgs(socket, ['list-panes', '-a', '-F', PANE_LIST_FORMAT]), { env: tmuxEnv(), timeout: 5000 }, (err, stdout, stderr) => {
      if (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return resolve({ ok: false, message: 'tmux is not installed' });
        if (/no server running|error connecting|No such file/i.test(stderr)) return resolve({ ok: true, panes: [] });
        return resolve({ ok: false, message: stderr.trim() || err.message });
      }
      void Promise.all(parsePaneList(stdout).map(async (p) => ({ ...p, tty: await ttyDeviceOf(p.ttyPath) }))).then((panes) => resolve({ ok: true, panes }));
    });
  });
}
