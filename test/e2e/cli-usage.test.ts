// Each real CLI's turn usage as larkmux reads it from the CLI's own transcript, checked against what the fake model
// server said each call used (FAKE_CALL_USAGE): Claude Code, Codex and Gemini through a real worker.
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkerToDaemon } from '../../src/shared/ipc.js';
import type { TurnUsage } from '../../src/shared/usage.js';
import { skipWithoutCli, type TestCliName } from '../support/clis.js';
import { startCliRig, type CliRig } from '../support/cli-rig.js';
import { FAKE_CALL_USAGE } from '../support/fake-models/common.js';

type Final = Extract<WorkerToDaemon, { type: 'final_output' }>;
const isFinal = (turnId: string) => (m: WorkerToDaemon): m is Final => m.type === 'final_output' && m.turnId === turnId;

/** What `calls` model calls of the fake add up to, as the ledger keeps them. */
function fakeUsage(calls: number): Partial<TurnUsage> {
  return {
    inputTokens: calls * FAKE_CALL_USAGE.freshInput,
    cacheReadTokens: calls * FAKE_CALL_USAGE.cachedInput,
    outputTokens: calls * FAKE_CALL_USAGE.output,
    cacheWriteTokens: 0,
    contextTokens: FAKE_CALL_USAGE.freshInput + FAKE_CALL_USAGE.cachedInput,
  };
}

/** `tool`: the CLI runs a shell tool without asking as seeded (Gemini asks), so a two-call turn can be checked too. */
const CASES: { cli: TestCliName; elapsed: boolean; window: boolean; tool: boolean }[] = [
  { cli: 'claude', elapsed: true, window: false, tool: true },
  { cli: 'codex', elapsed: true, window: true, tool: true },
  { cli: 'gemini', elapsed: false, window: false, tool: false },
];

describe.each(CASES)('real $cli: turn usage from its transcript', ({ cli, elapsed, window, tool }) => {
  let rig: CliRig | null = null;
  afterEach(async () => {
    await rig?.cleanup();
    rig = null;
  });

  it.skipIf(skipWithoutCli(cli))('each turn reports the fake\'s tokens for its one call, the model, and (where written) elapsed and window', async () => {
    rig = await startCliRig({ name: cli, seed: true });
    const w = rig.worker;
    for (const turn of ['u1', 'u2']) {
      w.input(turn, `usage check ${turn}`);
      const final = await w.waitFor(isFinal(turn), 90_000);
      expect(final.text).toBe(`FAKE-REPLY: usage check ${turn}`);
      expect(final.usage).toMatchObject(fakeUsage(1));
      expect(final.usage?.model).toMatch(/\S/);
      expect(final.usage?.elapsedMs !== undefined).toBe(elapsed);
      expect(final.usage?.contextWindow !== undefined).toBe(window);
    }
    if (!tool) return;
    // A tool call and the answer after its result: two calls of the fake, summed into the one turn.
    w.input('t', 'please RUN_TOOL: echo usage-tool');
    const final = await w.waitFor(isFinal('t'), 90_000);
    expect(final.text).toContain('FAKE-REPLY: tool said:');
    expect(final.usage).toMatchObject(fakeUsage(2));
  });
});
