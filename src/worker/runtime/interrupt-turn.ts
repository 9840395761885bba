// "Interrupt and send" (issue 30 item 4): the running turn is stopped with the key the card's key row would press for
// this CLI, and whatever the CLI put back in its input box (Claude returns the interrupted prompt there) is cleared,
// so the waiting message that goes next is sent alone and the interrupted one is never sent twice.
import type { KeyName } from '../../shared/keys.js';
import type { SessionBackend } from '../backend/types.js';
import type { CliAdapter } from '../cli/types.js';
import { clearComposer } from './deliverer.js';
import { lookAt, sleep } from './pane.js';

export const INTERRUPT_TIMING = {
  /** Looks at the screen after the key, until it no longer shows a working CLI. */
  checkEveryMs: 200,
  /** Give up looking after this many checks; the queue then waits for the status detector as after any turn. */
  maxChecks: 50,
} as const;

/** The key that stops a working turn: Esc for the model CLIs (their footers say "esc to interrupt"), Ctrl+C for programs. */
export function interruptKeyOf(adapter: CliAdapter): KeyName {
  return adapter.input === 'program' ? 'ctrl_c' : 'esc';
}

/** Presses the interrupt key, waits for the CLI to stop working, then empties its input box. True when all went as planned. */
export async function interruptTurn(backend: SessionBackend, adapter: CliAdapter): Promise<boolean> {
  const pressed = await backend.sendKey(interruptKeyOf(adapter));
  if (!pressed.ok) return false;
  for (let i = 0; i < INTERRUPT_TIMING.maxChecks; i++) {
    await sleep(INTERRUPT_TIMING.checkEveryMs);
    const look = await lookAt(backend, adapter);
    if (!look.ok) return false;
    if (look.look.screen.kind !== 'busy') return clearComposer(backend, adapter);
  }
  return false;
}
