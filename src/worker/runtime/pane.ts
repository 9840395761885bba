// One look at the pane: capture, then the adapter's pure classification and composer reading of the same text.
import type { SessionBackend } from '../backend/types.js';
import type { CliAdapter, KeyStep, ScreenState } from '../cli/types.js';

export interface PaneLook {
  text: string;
  screen: ScreenState;
  composer: string | null;
}

export type LookResult = { ok: true; look: PaneLook } | { ok: false; code: string; message: string };

export async function lookAt(backend: SessionBackend, adapter: CliAdapter): Promise<LookResult> {
  const cap = await backend.capture();
  if (!cap.ok) return cap;
  return { ok: true, look: { text: cap.value, screen: adapter.classify(cap.value), composer: adapter.composerText(cap.value) } };
}

/** Sends key steps in order: named keys through send-keys, text literally. Stops at the first failure. */
export async function sendSteps(backend: SessionBackend, steps: readonly KeyStep[]): Promise<{ ok: true } | { ok: false; message: string }> {
  for (const step of steps) {
    const r = 'key' in step ? await backend.sendKey(step.key) : await backend.sendText(step.text);
    if (!r.ok) return { ok: false, message: r.message };
  }
  return { ok: true };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** Sleeps until the clock reaches `at` (Date.now() ms). */
export function sleepUntil(at: number): Promise<void> {
  return sleep(at - Date.now());
}
