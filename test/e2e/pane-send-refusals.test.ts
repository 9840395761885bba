// `larkmux send` with what it must refuse, end to end: real daemon, real SDK, fake Feishu, a real shell in real tmux.
// A pane controls what it names; the daemon must never wait on it (issue 31 item 2).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive, readPid } from '../../src/platform/pid-lock.js';
import { textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';
import { runLarkmux, ROOT } from '../support/larkmux-cli.js';

const LARKMUX = `'${process.execPath}' '${join(ROOT, 'bin', 'larkmux.js')}'`;
const FIFOS = ['f1', 'f2', 'f3', 'f4', 'f5'] as const;

describe('larkmux send refuses what it must, without holding the daemon', () => {
  let rig: E2eRig | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
  });

  it('five sends of FIFOs from one pane are refused; where from another session, status and stop still answer', { timeout: 240_000 }, async () => {
    rig = await startRig();
    await rig.start();
    const { fake, home } = rig;
    const appId = rig.appIds[0]!;
    const a = await fake.injectMessage({ chatType: 'p2p', text: 'echo a-ready-$((6*7))' });
    await fake.waitFor(() => textsIn(fake, appId, a.chatId).some((t) => t.includes('a-ready-42')), 30_000, 'session a up');
    const b = await fake.injectMessage({ chatType: 'p2p', text: 'echo b-ready-$((6*7))' });
    await fake.waitFor(() => textsIn(fake, appId, b.chatId).some((t) => t.includes('b-ready-42')), 30_000, 'session b up');
    const sessionB = (await rig.status()).sessions.find((s: { key: string }) => s.key.includes(b.chatId));
    expect(sessionB).toBeDefined();

    // Nobody ever writes to these FIFOs: opening one for reading the ordinary way waits for a writer forever.
    const sends = FIFOS.map((f) => `( ${LARKMUX} send ${f}; echo "${f}-exit-$?" ) &`).join(' ');
    await fake.injectMessage({ chatType: 'p2p', chatId: a.chatId, text: `mkfifo ${FIFOS.join(' ')} && { ${sends} wait; }` });

    // Another session's pane is answered, and the daemon's own status too.
    await fake.injectMessage({ chatType: 'p2p', chatId: b.chatId, text: `${LARKMUX} where; echo where-exit-$?` });
    await fake.waitFor(() => textsIn(fake, appId, b.chatId).some((t) => t.includes('where-exit-')), 60_000, 'where answer');
    const whereText = textsIn(fake, appId, b.chatId).find((t) => t.includes('where-exit-'))!;
    expect(whereText).toContain('where-exit-0');
    expect(whereText).toContain(sessionB.id);
    expect((await rig.status()).running).toBe(true);

    // Each send says, naming its file, why nothing was posted, and exits non-zero.
    const allAnswered = () => {
      const text = textsIn(fake, appId, a.chatId).join('\n');
      return FIFOS.every((f) => text.includes(`${f}-exit-`));
    };
    await fake.waitFor(allAnswered, 60_000, 'every send answered');
    const paneText = textsIn(fake, appId, a.chatId).join('\n');
    for (const f of FIFOS) {
      expect(paneText).toContain(`${f}-exit-1`);
      expect(paneText).toContain(`not sent ${join(home.dir, f)}: not a regular file (a FIFO)`);
    }
    expect(fake.fileUploads.length).toBe(0);

    // And the daemon stops when asked.
    const pid = readPid(home.paths.pidFile);
    expect(pid).not.toBeNull();
    const stopped = await runLarkmux(['stop'], home.env);
    expect(stopped.stdout).toContain('larkmux stopped');
    expect(stopped.code).toBe(0);
    expect(isAlive(pid!)).toBe(false);
    expect(existsSync(home.paths.controlSocket)).toBe(false);
  });
});
