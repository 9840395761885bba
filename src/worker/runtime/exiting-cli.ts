// A CLI that said it is ending during start-up (Gemini: "restarting to apply the trust changes") is ended before it
// is launched again: it gets a moment to exit on its own, then its session is killed. Its pane is never taken over:
// a take-over would only see the same "ending" screen again and give up on the message.
import type { Logger } from '../../platform/log.js';
import type { ProbeResult, SessionBackend } from '../backend/types.js';
import type { SessionCheck } from '../lifecycle/input-machine.js';
import { sleep } from './pane.js';

export const EXITING_CLI = {
  /**
   * Gemini 0.61 exited 0.5–1 s after its restart notice when it exited; inside the tests' loopback-only network
   * namespace it hung instead (never exited) in 2 of 3 cold starts. 3 s is three times the slowest exit seen.
   */
  graceMs: 3_000,
  /** How often the pane is asked meanwhile (one tmux command each). */
  pollMs: 100,
} as const;

/** Waits for the ending CLI's pane to die, kills the session when it does not, and says what is left. */
export async function endExitingCli(backend: SessionBackend, log: Logger, timing: { graceMs: number; pollMs: number } = EXITING_CLI): Promise<SessionCheck> {
  const deadline = Date.now() + timing.graceMs;
  let p = await backend.probe();
  while (p.state === 'exists' && !p.paneDead && Date.now() < deadline) {
    await sleep(timing.pollMs);
    p = await backend.probe();
  }
  if (p.state === 'exists' && !p.paneDead) {
    log.warn({ graceMs: timing.graceMs }, 'the CLI said it was ending but still runs; ending its session before launching it again');
    const killed = await backend.kill();
    if (!killed.ok) log.warn({ err: killed.message }, 'could not end the lingering CLI');
    p = await backend.probe();
  }
  return sessionCheckOf(p);
}

/** What a probe says of the CLI's session for the input machine; a probe that could not tell counts as missing. */
export function sessionCheckOf(p: ProbeResult): SessionCheck {
  if (p.state !== 'exists') return 'missing';
  return p.paneDead ? 'dead' : 'alive';
}
