// Finds the larkmux session a local caller (`larkmux where` / `send`) runs in, from facts the daemon reads itself.
import { callerFacts, commandLine } from './process-facts.js';
import { cmdlineShowsProof, matchCallerPane, type PaneInfo } from '../../shared/pane-identity.js';
import { listPanes } from './tmux-panes.js';

export interface CallerClaim {
  pid: number;
  /** The nonce the caller put in its process title (see CALLER_PROOF). */
  proof: string;
}

export type CallerLocation<S> =
  | { ok: true; session: S; pane: PaneInfo }
  | { ok: false; reason: 'gone' | 'unproven' | 'no_tty' | 'no_pane_tty' | 'not_descendant' | 'not_a_session' | 'tmux'; detail?: string };

/**
 * `sessionOfPane` maps a tmux session name to an open larkmux session (or undefined for any other tmux session).
 * Order matters for what a forger learns: the proof is checked before anything about panes is looked at.
 */
export async function locateCaller<S>(claim: CallerClaim, socket: string | null, sessionOfPane: (tmuxSession: string) => S | undefined): Promise<CallerLocation<S>> {
  const cmd = await commandLine(claim.pid);
  if (cmd === null) return { ok: false, reason: 'gone' };
  if (!cmdlineShowsProof(cmd, claim.proof)) return { ok: false, reason: 'unproven' };
  const facts = await callerFacts(claim.pid);
  if (!facts) return { ok: false, reason: 'gone' };
  const list = await listPanes(socket);
  if (!list.ok) return { ok: false, reason: 'tmux', detail: list.message };
  const match = matchCallerPane(facts, list.panes);
  if (!match.ok) return { ok: false, reason: match.reason };
  const session = sessionOfPane(match.pane.tmuxSession);
  return session === undefined ? { ok: false, reason: 'not_a_session' } : { ok: true, session, pane: match.pane };
}
