// Finds the tmux pane (and the larkmux session) a caller of `larkmux where` / `send` runs in, from facts read here:
// the daemon for a local pane, a host's agent for a pane on that host (the daemon then decides the session).
import { callerFacts, commandLine } from './process-facts.js';
import { cmdlineShowsProof, matchCallerPane, type PaneInfo } from '../shared/pane-identity.js';
import { listPanes } from './tmux-panes.js';

export interface CallerClaim {
  pid: number;
  /** The nonce the caller put in its process title (see CALLER_PROOF). */
  proof: string;
}

export type CallerMiss = { ok: false; reason: 'gone' | 'unproven' | 'no_tty' | 'no_pane_tty' | 'not_descendant' | 'not_a_session' | 'tmux'; detail?: string };
export type CallerPane = { ok: true; pane: PaneInfo } | CallerMiss;
export type CallerLocation<S> = { ok: true; session: S; pane: PaneInfo } | CallerMiss;

/**
 * The pane of this machine's tmux server (`socket`) whose tty is the caller's controlling terminal. Order matters for
 * what a forger learns: the proof is checked before anything about panes is looked at.
 */
export async function locateCallerPane(claim: CallerClaim, socket: string | null): Promise<CallerPane> {
  const cmd = await commandLine(claim.pid);
  if (cmd === null) return { ok: false, reason: 'gone' };
  if (!cmdlineShowsProof(cmd, claim.proof)) return { ok: false, reason: 'unproven' };
  const facts = await callerFacts(claim.pid);
  if (!facts) return { ok: false, reason: 'gone' };
  const list = await listPanes(socket);
  if (!list.ok) return { ok: false, reason: 'tmux', detail: list.message };
  const match = matchCallerPane(facts, list.panes);
  return match.ok ? match : { ok: false, reason: match.reason };
}

/** `sessionOfPane` maps a tmux session name to an open larkmux session (or undefined for any other tmux session). */
export async function locateCaller<S>(claim: CallerClaim, socket: string | null, sessionOfPane: (tmuxSession: string) => S | undefined): Promise<CallerLocation<S>> {
  const found = await locateCallerPane(claim, socket);
  if (!found.ok) return found;
  const session = sessionOfPane(found.pane.tmuxSession);
  return session === undefined ? { ok: false, reason: 'not_a_session' } : { ok: true, session, pane: found.pane };
}
