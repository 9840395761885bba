// The host's side of `/adopt` (`node host-agent.js adopt`, see shared/host-adopt-protocol.ts): one request on stdin,
// answered from larkmux's own tmux server here — the one the host's workers use, derived from larkmux's folder — by
// the same scan and link as a local /adopt (platform/adoptable-panes.ts), so an adopted pane is where the worker looks.
import type { Readable } from 'node:stream';
import { readCapped } from '../../platform/read-capped.js';
import { linkPane, scanAdoptable, unlinkPane } from '../../platform/adoptable-panes.js';
import { HostAdoptRequestSchema, type HostAdoptLinkResult, type HostAdoptListResult } from '../../shared/host-adopt-protocol.js';
import { tmuxSocketName } from '../../shared/tmux-socket.js';

/** A request is one short line; anything longer is refused unread. */
const MAX_REQUEST_BYTES = 64 * 1024;

export async function answerAdopt(input: Readable): Promise<HostAdoptListResult | HostAdoptLinkResult> {
  const got = await readCapped(input, MAX_REQUEST_BYTES, { onOverflow: 'destroy' });
  let raw: unknown;
  try {
    raw = got.kind === 'body' ? JSON.parse(got.data.toString('utf8')) : undefined;
  } catch {
    raw = undefined;
  }
  const parsed = HostAdoptRequestSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, code: 'bad_request', message: 'not an /adopt request' };
  const req = parsed.data;
  const socket = tmuxSocketName(null, req.home);
  if (req.action === 'unlink') {
    await unlinkPane(socket, req.tmuxName);
    return { ok: true };
  }
  const scan = await scanAdoptable(socket, req.cli);
  if (!scan.ok) return { ok: false, code: 'scan_failed', message: scan.message.slice(0, 2000) };
  if (req.action === 'list') return { ok: true, candidates: scan.candidates, notAdoptable: scan.notAdoptable.length };
  const candidate = scan.candidates.find((c) => c.paneId === req.paneId && c.cliPid === req.cliPid);
  if (!candidate) return { ok: false, code: 'gone' };
  const linked = await linkPane(socket, req.tmuxName, candidate);
  return linked.ok ? { ok: true, candidate } : { ok: false, code: 'link_failed', message: linked.message.slice(0, 2000) };
}
