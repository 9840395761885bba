// Every pane on larkmux's tmux server with its tty and first process, for finding (and later adopting) panes.
import { runTmux } from './tmux-runner.js';
import { PANE_LIST_FORMAT, parsePaneList, type PaneInfo } from '../shared/pane-identity.js';
import { ttyDeviceOf } from './process-facts.js';

export type PaneList = { ok: true; panes: PaneInfo[] } | { ok: false; message: string };

export async function listPanes(socket: string | null): Promise<PaneList> {
  const res = await runTmux(['list-panes', '-a', '-F', PANE_LIST_FORMAT], { socket });
  if (!res.ok) {
    if (res.code === 'tmux_missing') return { ok: false, message: 'tmux is not installed' };
    if (res.code === 'no_server') return { ok: true, panes: [] };
    return { ok: false, message: res.message };
  }
  const panes = await Promise.all(parsePaneList(res.stdout).map(async (p) => ({ ...p, tty: await ttyDeviceOf(p.ttyPath) })));
  return { ok: true, panes };
}
