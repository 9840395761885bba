// The real Gemini CLI driven by a real worker against the fake Gemini server: first message and tool permission.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkerToDaemon } from '../../src/shared/ipc.js';
import { skipWithoutCli } from '../support/clis.js';
import { startCliRig, type CliRig } from '../support/cli-rig.js';

type Final = Extract<WorkerToDaemon, { type: 'final_output' }>;
type Sel = Extract<WorkerToDaemon, { type: 'selection' }>;
const isFinal = (turnId: string) => (m: WorkerToDaemon): m is Final => m.type === 'final_output' && m.turnId === turnId;
const isSel = (kind: Sel['kind']) => (m: WorkerToDaemon): m is Sel => m.type === 'selection' && m.kind === kind;

describe.skipIf(skipWithoutCli('gemini'))('real Gemini CLI through the worker', () => {
  let rig: CliRig | null = null;
  afterEach(async () => {
    await rig?.cleanup();
    rig = null;
  });

  it('first and second message: ready through the gate, reply reported, one launch', async () => {
    rig = await startCliRig({ name: 'gemini', seed: true });
    const w = rig.worker;
    w.input('t1', 'hello from larkmux');
    expect((await w.waitFor(isFinal('t1'), 60_000)).text).toBe('FAKE-REPLY: hello from larkmux');
    const id = await w.waitFor((m) => m.type === 'cli_identity', 10_000);
    w.input('t2', 'second message');
    expect((await w.waitFor(isFinal('t2'), 45_000)).text).toBe('FAKE-REPLY: second message');
    expect((w.logText().match(/"msg":"CLI launched"/g) ?? []).length).toBe(1);
    expect((w.logText().match(/readiness gate: open/g) ?? []).length).toBe(1);
    expect(new Set(w.of('cli_identity').map((m) => m.nativeSessionId))).toEqual(new Set([id.type === 'cli_identity' ? id.nativeSessionId : '']));
  });

  it('a tool permission prompt becomes a selection with the real options: allow runs the tool, no does not', async () => {
    rig = await startCliRig({ name: 'gemini', seed: true });
    const w = rig.worker;
    w.input('y', 'MAKE-FILE yes.txt');
    const sel = await w.waitFor(isSel('permission'), 40_000);
    const allow = sel.options.findIndex((o) => /Allow once/.test(o.label));
    expect(allow).toBeGreaterThanOrEqual(0);
    expect(sel.options.some((o) => /^\d\. No\b/.test(o.label))).toBe(true);
    w.send({ type: 'selection_choice', promptId: sel.promptId, optionIndex: allow });
    await w.waitFor(isFinal('y'), 60_000);
    expect(existsSync(join(rig.cwd, 'yes.txt'))).toBe(true);

    const from = w.messages.length;
    w.input('n', 'MAKE-FILE no.txt');
    const sel2 = await w.waitFor(isSel('permission'), 45_000, from);
    w.send({ type: 'selection_choice', promptId: sel2.promptId, optionIndex: sel2.options.findIndex((o) => /^\d\. No\b/.test(o.label)) });
    await w.waitFor((m) => m.type === 'status' && m.status === 'idle', 60_000, from + 1);
    expect(existsSync(join(rig.cwd, 'no.txt'))).toBe(false);
  });
});
