// The readiness gate surfaces a dialog on a real pane as the same `selection` message the prompt watcher sends
// (issue 28): the gate's own copy used to drop `textOption`, so a "Type something." row lost its typed answer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/log.js';
import type { WorkerToDaemon } from '../../src/shared/ipc.js';
import { newSessionId } from '../../src/shared/session-key.js';
import { TmuxBackend } from '../../src/worker/backend/tmux.js';
import { claudeCodeAdapter } from '../../src/worker/cli/claude-code.js';
import { GateRunner } from '../../src/worker/runtime/gate-runner.js';
import { runPromptEffects } from '../../src/worker/runtime/prompt-effects.js';
import { StatusReporter } from '../../src/worker/runtime/status-reporter.js';
import { makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';
import { until } from '../support/until.js';

const SCREEN = join(import.meta.dirname, '..', 'fixtures', 'screens', 'claude-26-ask-user-question.txt');
const log = createLogger({ level: 'silent' });

let server: TestTmuxServer;
let home: string;
let backend: TmuxBackend | null = null;
beforeEach(() => {
  server = makeTmuxServer();
  home = mkdtempSync(join(tmpdir(), 'lmx-gate-sel-'));
});
afterEach(async () => {
  await backend?.dispose();
  backend = null;
  await server.kill();
  rmSync(home, { recursive: true, force: true });
});

describe('a dialog surfaced by the readiness gate', () => {
  it('reaches the daemon with its typed-answer option, exactly as the prompt watcher sends it', async () => {
    backend = new TmuxBackend({ sessionId: newSessionId(), home, socket: server.socket });
    const started = await backend.start({ argv: ['sh', '-c', `cat '${SCREEN}'; exec sleep 600`], cwd: home, env: {}, cols: 120, rows: 40 });
    expect(started).toMatchObject({ ok: true });
    const sent: WorkerToDaemon[] = [];
    const send = (m: WorkerToDaemon) => void sent.push(m);
    const gate = new GateRunner({ backend, adapter: claudeCodeAdapter, log, send, status: new StatusReporter(send), startupDialogs: 'ask', timing: { pollMs: 100 } });
    const run = gate.run();
    await until('the gate surfaced the dialog', () => sent.some((m) => m.type === 'selection'), 30_000);
    gate.dispose();
    await run;
    const fromGate = sent.find((m) => m.type === 'selection');
    expect(fromGate).toMatchObject({ type: 'selection', textOption: 2, options: expect.arrayContaining([{ label: expect.stringMatching(/Type something/) }]) });
    // The prompt watcher's path, given the same dialog, sends the very same message.
    const screen = await backend.capture();
    const state = screen.ok ? claudeCodeAdapter.classify(screen.value) : null;
    expect(state?.kind).toBe('selection');
    const fromWatcher: WorkerToDaemon[] = [];
    if (state?.kind === 'selection') {
      await runPromptEffects([{ type: 'surface', selection: state }], { backend, log, send: (m) => fromWatcher.push(m), lookNow: () => {} });
    }
    expect(fromWatcher).toEqual([fromGate]);
    // The person is told the session waits, right after the dialog itself (through the worker's one status sender).
    const i = sent.indexOf(fromGate!);
    expect(sent[i + 1]).toMatchObject({ type: 'status', status: 'waiting', detail: expect.stringMatching(/./) });
  });
});
