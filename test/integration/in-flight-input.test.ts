// The worker's side of a prompt in flight when a host's link dropped (in-flight-input.ts): the CLI's transcript, as
// the CLI wrote it on disk (a recorded Claude Code session, test/fixtures/transcripts), decides whether the prompt is
// taken as arrived (delivered, its answer sent when the turn already ended), typed again, or left to the user.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkerToDaemon } from '../../src/shared/ipc.js';
import { claudeCodeAdapter, claudeTranscriptPath } from '../../src/worker/cli/claude-code.js';
import { shellAdapter } from '../../src/worker/cli/shell.js';
import type { CliAdapter } from '../../src/worker/cli/types.js';
import { IN_FLIGHT, takeInFlight } from '../../src/worker/runtime/in-flight-input.js';

const fixture = join(import.meta.dirname, '..', 'fixtures', 'transcripts', 'claude-session.jsonl');
const sessionId = '0d84ddc5-c63c-4667-835b-a1aca94ceb41';
/** When the recorded session's first prompt was written (its record's stamp). */
const firstPromptAt = Date.parse('2026-11-30T08:00:22.327Z');

let home: string;
const cwd = '/srv/app';
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'lmx-inflight-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** The session's transcript where Claude Code keeps it under `home`: the whole recording, or its first `lines`. */
function writeTranscript(lines?: number): void {
  const path = claudeTranscriptPath(home, cwd, sessionId);
  mkdirSync(dirname(path), { recursive: true });
  if (lines === undefined) copyFileSync(fixture, path);
  else writeFileSync(path, readFileSync(fixture, 'utf8').split('\n').slice(0, lines).join('\n') + '\n');
}

async function take(adapter: CliAdapter, text: string, o: { since: number; raw?: boolean; nativeSessionId?: string; delivered?: boolean }) {
  const sent: WorkerToDaemon[] = [];
  const followed: string[] = [];
  const followedSince: number[] = [];
  let typed = 0;
  await takeInFlight({
    adapter, where: { cwd, home, env: {} }, nativeSessionId: () => o.nativeSessionId, send: (m) => sent.push(m),
    follow: async (turnId, t, since) => void (followed.push(`${turnId}:${t}`), followedSince.push(since)), type: () => void (typed += 1),
  }, { turnId: 'om_turn', text, raw: o.raw ?? false, sinceMs: o.since, ...(o.delivered ? { delivered: true } : {}) });
  return { sent, followed, typed, followedSince };
}

describe('a prompt in flight, checked against the transcript on the host', () => {
  it('recorded and answered: delivered and its answer sent, not typed again', async () => {
    writeTranscript();
    const r = await take(claudeCodeAdapter, 'hello from probe one', { since: firstPromptAt, nativeSessionId: sessionId });
    expect(r.typed).toBe(0);
    expect(r.followed).toEqual([]);
    expect(r.sent.map((m) => m.type)).toEqual(['input_delivered', 'final_output']);
    expect(r.sent[1]).toMatchObject({ type: 'final_output', turnId: 'om_turn', text: 'FAKE-REPLY: hello from probe one' });
  });

  it('recorded, its turn still running: delivered, and the monitor follows the turn for its answer', async () => {
    writeTranscript(5); // up to the prompt's own record
    const r = await take(claudeCodeAdapter, 'hello from probe one', { since: firstPromptAt, nativeSessionId: sessionId });
    expect(r.typed).toBe(0);
    expect(r.followed).toEqual(['om_turn:hello from probe one']);
    expect(r.sent).toEqual([{ type: 'input_delivered', turnId: 'om_turn', evidence: 'transcript', enterRetries: 0 }]);
  });

  it('reported delivered before the link dropped: never typed again nor called lost; its answer sent or its turn followed', async () => {
    writeTranscript();
    const answered = await take(claudeCodeAdapter, 'hello from probe one', { since: firstPromptAt, nativeSessionId: sessionId, delivered: true });
    expect(answered.typed).toBe(0);
    // Said delivered before: only the answer goes.
    expect(answered.sent.map((m) => m.type)).toEqual(['final_output']);
    writeTranscript(5);
    const running = await take(claudeCodeAdapter, 'hello from probe one', { since: firstPromptAt, nativeSessionId: sessionId, delivered: true });
    expect(running).toMatchObject({ sent: [], followed: ['om_turn:hello from probe one'], typed: 0 });
    // The monitor reads the turn's records from its hand-over (less the clock slack), not from where it starts.
    expect(running.followedSince).toEqual([firstPromptAt - IN_FLIGHT.clockSlackMs]);
    for (const r of [await take(shellAdapter, 'sleep 40', { since: firstPromptAt, delivered: true }), await take(claudeCodeAdapter, 'hello from probe one', { since: Date.parse('2026-11-30T09:00:00Z'), nativeSessionId: sessionId, delivered: true })]) {
      expect(r).toMatchObject({ sent: [], followed: [expect.stringMatching(/^om_turn:/)], typed: 0 });
    }
  });

  it('not recorded since it was handed over: typed again, once', async () => {
    writeTranscript();
    // Handed over after the whole recording (beyond the clock slack): the same text earlier is another turn.
    const r = await take(claudeCodeAdapter, 'hello from probe one', { since: Date.parse('2026-11-30T09:00:00Z'), nativeSessionId: sessionId });
    expect(r).toMatchObject({ sent: [], followed: [], typed: 1 });
    const other = await take(claudeCodeAdapter, 'a prompt it never got', { since: firstPromptAt, nativeSessionId: sessionId });
    expect(other).toMatchObject({ sent: [], followed: [], typed: 1 });
  });

  it('no way to tell (no transcript kept, a raw command, no session id, no file): not typed, the daemon told', async () => {
    const cases = [
      await take(shellAdapter, 'echo hi', { since: firstPromptAt }),
      await take(claudeCodeAdapter, '/model', { since: firstPromptAt, raw: true, nativeSessionId: sessionId }),
      await take(claudeCodeAdapter, 'hello from probe one', { since: firstPromptAt }),
      await take(claudeCodeAdapter, 'hello from probe one', { since: firstPromptAt, nativeSessionId: sessionId }), // no file written
    ];
    for (const r of cases) {
      expect(r.typed).toBe(0);
      expect(r.sent).toHaveLength(1);
      expect(r.sent[0]).toMatchObject({ type: 'input_failed', turnId: 'om_turn', failure: { code: 'may_not_have_arrived' } });
    }
  });
});
