// The real Codex CLI driven by a real worker against the fake OpenAI Responses server: the acceptance stories.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkerToDaemon } from '../../src/shared/ipc.js';
import type { CliAdapter } from '../../src/worker/cli/types.js';
import { parseAll } from '../../src/worker/transcript/types.js';
import { skipWithoutCli } from '../support/clis.js';
import { startCliRig, type CliRig } from '../support/cli-rig.js';

type Final = Extract<WorkerToDaemon, { type: 'final_output' }>;
type Sel = Extract<WorkerToDaemon, { type: 'selection' }>;
const isFinal = (turnId: string) => (m: WorkerToDaemon): m is Final => m.type === 'final_output' && m.turnId === turnId;
const isSel = (kind: Sel['kind']) => (m: WorkerToDaemon): m is Sel => m.type === 'selection' && m.kind === kind;

/** Approvals on request: Codex asks when the model asks to escalate (the fake does for MAKE-FILE). */
const ON_REQUEST = 'approval_policy = "on-request"';

export function userTurnsIn(adapter: CliAdapter, path: string): string[] {
  const records = readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);
  return parseAll(adapter.transcript!.parser(), records).flatMap((e) => (e.kind === 'user_turn' ? [e.text] : []));
}

const launches = (r: CliRig) => (r.worker.logText().match(/"msg":"CLI launched"/g) ?? []).length;
const gateRuns = (r: CliRig) => (r.worker.logText().match(/readiness gate: open/g) ?? []).length;
const transcriptOf = (r: CliRig) => r.worker.of('cli_identity').find((m) => m.transcriptPath)?.transcriptPath ?? '';

describe.skipIf(skipWithoutCli('codex'))('real Codex through the worker', () => {
  let rig: CliRig | null = null;
  afterEach(async () => {
    await rig?.cleanup();
    rig = null;
  });

  it('first and second message: one launch, one native id, no readiness polling before the second send', async () => {
    rig = await startCliRig({ name: 'codex', seed: true });
    const w = rig.worker;
    w.input('t1', 'hello from larkmux');
    expect((await w.waitFor(isFinal('t1'), 45_000)).text).toBe('FAKE-REPLY: hello from larkmux');
    const identity = await w.waitFor((m) => m.type === 'cli_identity', 10_000);
    const pid = await w.panePid();
    w.input('t2', 'second message');
    expect((await w.waitFor(isFinal('t2'), 45_000)).text).toBe('FAKE-REPLY: second message');
    expect(launches(rig)).toBe(1);
    expect(gateRuns(rig)).toBe(1);
    expect(await w.panePid()).toBe(pid);
    expect(new Set(w.of('cli_identity').map((m) => m.nativeSessionId))).toEqual(new Set([identity.type === 'cli_identity' ? identity.nativeSessionId : '']));
    expect(w.of('input_failed')).toEqual([]);
  });

  it('a multi-line prompt and a 20 KB prompt each arrive as exactly one user turn', async () => {
    rig = await startCliRig({ name: 'codex', seed: true });
    const w = rig.worker;
    const multi = 'line one of the prompt\nline two\n\nline four after a blank';
    const big = Array.from({ length: 700 }, (_, i) => `chunk ${String(i).padStart(3, '0')} of a long prompt.`).join(' ').slice(0, 20_000);
    w.input('m', multi);
    await w.waitFor(isFinal('m'), 45_000);
    w.input('b', big);
    await w.waitFor(isFinal('b'), 45_000);
    const turns = userTurnsIn(rig.adapter, transcriptOf(rig));
    expect(turns).toHaveLength(2);
    expect(turns[0]).toBe(multi);
    expect(turns[1] === big).toBe(true);
  });

  it('an escalation request becomes a selection with the real options: yes runs the tool, no does not and still answers the turn', async () => {
    rig = await startCliRig({ name: 'codex', seed: true, codexConfig: ON_REQUEST });
    const w = rig.worker;
    w.input('y', 'MAKE-FILE yes.txt');
    const sel = await w.waitFor(isSel('permission'), 30_000);
    const yes = sel.options.findIndex((o) => /^1\.|Yes/i.test(o.label));
    expect(yes).toBeGreaterThanOrEqual(0);
    w.send({ type: 'selection_choice', promptId: sel.promptId, optionIndex: yes });
    await w.waitFor(isFinal('y'), 45_000);
    expect(existsSync(join(rig.cwd, 'yes.txt'))).toBe(true);

    const from = w.messages.length;
    w.input('n', 'MAKE-FILE no.txt');
    const sel2 = await w.waitFor(isSel('permission'), 30_000, from);
    const no = sel2.options.findIndex((o) => /\(esc\)$|^\d\. No\b/i.test(o.label));
    expect(no).toBeGreaterThan(0);
    w.send({ type: 'selection_choice', promptId: sel2.promptId, optionIndex: no });
    // Codex aborts the turn after a refusal (turn_aborted, no task_complete). The person still gets an answer for it:
    // what the model said, and that the command was refused. Before the fix no final_output came for this turn at all
    // (the monitor only closed it silently after its 20 s grace), so waiting for it is a behavioural check, not a timing one.
    const refused = await w.waitFor(isFinal('n'), 45_000, from);
    expect(refused.text).toContain('FAKE-REPLY: running touch no.txt');
    expect(refused.text).toMatch(/request to run `touch no\.txt` was refused/);
    await w.waitFor((m) => m.type === 'status' && m.status === 'idle', 45_000, from + 1);
    expect(existsSync(join(rig.cwd, 'no.txt'))).toBe(false);
    expect(w.logText()).not.toMatch(/turn closed by a silent idle screen/);
    // The aborted turn used up its own end: the next message gets its own answer, not a stale one.
    w.input('after', 'after the refusal');
    expect((await w.waitFor(isFinal('after'), 45_000)).text).toBe('FAKE-REPLY: after the refusal');
  });

  it('three messages sent while the model is slow arrive in order as three turns', async () => {
    rig = await startCliRig({ name: 'codex', seed: true, slowDelayMs: 4_000 });
    const w = rig.worker;
    w.input('s1', 'SLOW first');
    await w.waitFor((m) => m.type === 'input_delivered' && m.turnId === 's1', 30_000);
    w.input('s2', 'second');
    w.input('s3', 'third');
    const finals = [];
    for (const t of ['s1', 's2', 's3']) finals.push((await w.waitFor(isFinal(t), 45_000)).text);
    expect(finals).toEqual(['FAKE-REPLY: SLOW first', 'FAKE-REPLY: second', 'FAKE-REPLY: third']);
    expect(userTurnsIn(rig.adapter, transcriptOf(rig))).toEqual(['SLOW first', 'second', 'third']);
  });

  it('a killed CLI is detected, reported as exited, and the next message resumes the conversation', async () => {
    rig = await startCliRig({ name: 'codex', seed: true });
    const w = rig.worker;
    w.input('k1', 'remember the word PELICAN');
    await w.waitFor(isFinal('k1'), 45_000);
    const identity = await w.waitFor((m) => m.type === 'cli_identity', 10_000);
    process.kill((await w.panePid())!, 'SIGKILL');
    await w.waitFor((m) => m.type === 'status' && m.status === 'exited', 30_000);
    expect(w.of('cli_exit')).toHaveLength(1);
    const requestsBefore = rig.fake.requests.length;
    w.input('k2', 'what was the word?');
    expect((await w.waitFor(isFinal('k2'), 45_000)).text).toContain('FAKE-REPLY: what was the word');
    expect(launches(rig)).toBe(2);
    expect(w.logText()).toMatch(/"mode":"resume"[^\n]*launch prepared/);
    expect(new Set(w.of('cli_identity').map((m) => m.nativeSessionId))).toEqual(new Set([identity.type === 'cli_identity' ? identity.nativeSessionId : '']));
    const later = rig.fake.requests.slice(requestsBefore).map((r) => JSON.stringify(r.body));
    if (!later.some((b) => b.includes('PELICAN'))) console.log('DEBUG', later.map((b) => b.slice(-1500)));
    expect(later.some((b) => b.includes('PELICAN') && b.includes('what was the word?'))).toBe(true);
  });
});
