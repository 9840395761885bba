// A prompt the daemon hands over again after a host's link dropped while it was in flight (`inFlightSince`): before it
// is typed, the CLI's transcript on this host says whether it arrived (lifecycle/in-flight.ts decides). Arrived: its
// turn goes on without retyping (delivered now; its answer too, when the transcript already has the turn's end).
// Absent: typed once, the composer emptied first (a worker cut off between paste and Enter leaves the text there).
// Unknown (no transcript, a raw CLI command, no session id to find it by): not typed, and the daemon tells the topic it
// may not have arrived. One reported delivered before the link dropped (`delivered`) is never typed again nor called
// lost: its turn is followed, so its answer still comes.
import { readFile } from 'node:fs/promises';
import { IPC_LIMITS, type WorkerToDaemon } from '../../shared/ipc.js';
import { failure } from '../../shared/failure.js';
import type { CliAdapter } from '../cli/types.js';
import { inFlightStep, inFlightVerdict, type InFlightTranscript } from '../lifecycle/in-flight.js';
import { parseAll, parserSince } from '../transcript/types.js';

export const IN_FLIGHT = {
  /**
   * Records stamped this long before the hand-over still count: the host's clock (the transcript's stamps) and the
   * daemon's (the hand-over's) may disagree a little; a host more than this far behind could have a prompt retyped.
   */
  clockSlackMs: 30_000,
} as const;

export interface InFlightInputDeps {
  adapter: CliAdapter;
  /** Where the transcript is found: the session's folder, HOME and env as the CLI runs with them. */
  where: { cwd: string; home: string; env: Record<string, string> };
  /** The CLI's own session id (the init's, or learned since): without it no transcript is known to be this session's. */
  nativeSessionId(): string | undefined;
  send(msg: WorkerToDaemon): void;
  /**
   * Arrived and still running: the monitor follows the turn (its answer comes from the transcript, read from
   * `sinceMs` if the monitor is not watching yet, so an end written before it starts is not missed).
   */
  follow(turnId: string, text: string, sinceMs: number): Promise<void>;
  /** Absent: typed once, after the composer is emptied (QueuedMessage.clearFirst). */
  type(): void;
}

/** What the CLI's transcript recorded since `sinceMs` (one read of the whole file). */
export async function transcriptSince(deps: Pick<InFlightInputDeps, 'adapter' | 'where' | 'nativeSessionId'>, raw: boolean, sinceMs: number): Promise<InFlightTranscript> {
  const t = deps.adapter.transcript;
  // A raw CLI command is never recorded as a user turn: its transcript can prove nothing about it.
  if (!t || raw) return { kind: 'none' };
  const nativeSessionId = deps.nativeSessionId();
  if (!nativeSessionId) return { kind: 'unreadable' };
  try {
    const path = await t.locate({ ...deps.where, nativeSessionId });
    if (!path) return { kind: 'unreadable' };
    const records = (await readFile(path, 'utf8')).split('\n').flatMap((line) => {
      try {
        return line.trim() ? [JSON.parse(line) as unknown] : [];
      } catch {
        return [];
      }
    });
    return { kind: 'read', events: parseAll(parserSince(t.parser(), sinceMs - IN_FLIGHT.clockSlackMs), records) };
  } catch {
    return { kind: 'unreadable' };
  }
}

/** `delivered`: reported delivered before the link dropped; only its answer is due (inFlightStep decides). */
export async function takeInFlight(deps: InFlightInputDeps, msg: { turnId: string; text: string; raw: boolean; sinceMs: number; delivered?: boolean }): Promise<void> {
  const step = inFlightStep(inFlightVerdict(msg.text, await transcriptSince(deps, msg.raw, msg.sinceMs)), msg.delivered === true);
  if (step.step === 'type') return deps.type();
  if (step.step === 'tell_unknown') {
    deps.send({ type: 'input_failed', turnId: msg.turnId, reason: `in flight when the host's link dropped; not retyped (${step.why})`, failure: failure('may_not_have_arrived') });
    return;
  }
  if (step.step === 'follow') await deps.follow(msg.turnId, msg.text, msg.sinceMs - IN_FLIGHT.clockSlackMs);
  if (step.report) deps.send({ type: 'input_delivered', turnId: msg.turnId, evidence: 'transcript', enterRetries: 0 });
  if (step.step === 'answer') {
    const { finalText, usage } = step.answer;
    deps.send({ type: 'final_output', turnId: msg.turnId, text: finalText.slice(0, IPC_LIMITS.text), ...(usage ? { usage } : {}) });
  }
}
