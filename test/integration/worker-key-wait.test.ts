// A real worker (real tmux) driving a small program that puts up a dialog larkmux does not know and waits for a key:
// the session reads "waiting" with the dialog's keys as options, and a chosen option presses its key (issue 31 item 13).
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkerToDaemon } from '../../src/shared/ipc.js';
import { startWorkerSession, tempDir, type WorkerSession } from '../support/worker-session.js';

type Sel = Extract<WorkerToDaemon, { type: 'selection' }>;
type Final = Extract<WorkerToDaemon, { type: 'final_output' }>;
const isStatus = (status: string) => (m: WorkerToDaemon) => m.type === 'status' && m.status === status;

/**
 * A prompt-driven program: `READY>` takes a line, then an unexpected dialog waits for one key (Enter carries on,
 * Esc gives up) and says which it got. Nothing in it is a dialog any adapter knows.
 */
const PROGRAM = `#!/bin/bash
while true; do
  printf 'READY> '
  IFS= read -r line || exit 0
  printf 'Something unexpected happened while doing: %s\\n  Enter to carry on · Esc to give up\\n' "$line"
  IFS= read -rsn1 key
  if [ -z "$key" ]; then echo "carried on with $line"; else echo "gave up on $line"; fi
done
`;

describe('a screen that waits for a key larkmux does not know', () => {
  let s: WorkerSession | undefined;
  let dir: ReturnType<typeof tempDir> | undefined;
  afterEach(async () => {
    await s?.cleanup();
    dir?.remove();
  });

  it('becomes a waiting session with the keys as options, and choosing one presses its key', async () => {
    dir = tempDir('lmx-keywait-');
    const program = join(dir.dir, 'dialog-program.sh');
    writeFileSync(program, PROGRAM);
    chmodSync(program, 0o755);
    s = startWorkerSession({
      cli: { command: program, args: [], readyPattern: 'READY>\\s*(?![\\s\\S])' },
      cwd: dir.dir,
      env: { HOME: dir.dir, PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    s.input('t1', 'deploy');
    await s.waitFor((m) => m.type === 'input_delivered' && m.turnId === 't1', 30_000);
    const sel = await s.waitFor((m): m is Sel => m.type === 'selection', 30_000);
    expect(sel.title).toBe('Something unexpected happened while doing: deploy');
    expect(sel.options.map((o) => o.label)).toEqual(['Carry on (Enter)', 'Give up (Esc)']);
    // The worker sends the status right after the selection, but the two can arrive in separate reads of the channel
    // (a busy machine): wait for it rather than expect it already there (this failed twice in one CI run).
    const waiting = s.messages.indexOf(await s.waitFor(isStatus('waiting'), 10_000));
    expect(waiting).toBeGreaterThanOrEqual(0);

    s.send({ type: 'selection_choice', promptId: sel.promptId, optionIndex: 0 });
    const final = await s.waitFor((m): m is Final => m.type === 'final_output' && m.turnId === 't1', 30_000);
    expect(final.text).toContain('carried on with deploy');
    await s.waitFor(isStatus('idle'), 30_000, waiting + 1);
  });
});
