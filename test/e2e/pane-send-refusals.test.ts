// `larkmux send` with what it must refuse, end to end: real daemon, real SDK, fake Feishu, a real shell in real tmux.
// A pane controls what it names; the daemon must never wait on it (issue 31 item 2).
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive, readPid } from '../../src/platform/pid-lock.js';
import { textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';
import { runLarkmux } from '../support/larkmux-cli.js';

// Typed as the README writes it: every pane the daemon starts has this installation's `larkmux` first on its PATH.
const LARKMUX = 'larkmux';
const FIFOS = ['f1', 'f2', 'f3', 'f4', 'f5'] as const;
const flat = (text: string) => text.replace(/\s+/g, '');

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
    // A long line may wrap on the pane: compared without whitespace.
    const paneText = flat(textsIn(fake, appId, a.chatId).join('\n'));
    for (const f of FIFOS) {
      expect(paneText).toContain(`${f}-exit-1`);
      expect(paneText).toContain(flat(`not sent ${join(home.dir, f)}: not a regular file (a FIFO)`));
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

  it('sends only from the session\'s folder and answerFileRoots: a link out and larkmux\'s config are refused, a link in is sent', async () => {
    const extra = mkdtempSync(join(tmpdir(), 'lmx-extra-root-'));
    const outside = mkdtempSync(join(tmpdir(), 'lmx-outside-'));
    try {
      writeFileSync(join(extra, 'shared.txt'), 'from the configured root\n');
      writeFileSync(join(outside, 'shadow'), 'root:SHADOW-LINE-NOT-TO-SEND\n');
      rig = await startRig({ botOverrides: { answerFileRoots: [extra] } });
      await rig.start();
      const { fake, home } = rig;
      const appId = rig.appIds[0]!;
      writeFileSync(join(home.dir, 'report.md'), '# report\n');
      const first = await fake.injectMessage({ chatType: 'p2p', text: `ln -s '${join(outside, 'shadow')}' link-to-shadow && ln -s report.md link-in.md && echo links-made` });
      const chatId = first.chatId;
      await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('links-made')), 30_000, 'links made');

      const names = ['link-to-shadow', 'config.json', 'link-in.md', join(extra, 'shared.txt'), join(outside, 'shadow')];
      await fake.injectMessage({ chatType: 'p2p', chatId, text: `${LARKMUX} send ${names.join(' ')}; echo send-exit-$?` });
      await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('send-exit-')), 60_000, 'send answer');
      // A long line may wrap on the pane: compared without whitespace.
      const paneText = flat(textsIn(fake, appId, chatId).join('\n'));
      expect(paneText).toContain('send-exit-1');
      const outsideWhy = `outside the folders larkmux sends from (${realpathSync(home.dir)}, ${realpathSync(extra)}): the session's folder and answerFileRoots in config.json`;
      expect(paneText).toContain(flat(`not sent ${join(home.dir, 'link-to-shadow')}: ${outsideWhy}`));
      expect(paneText).toContain(flat(`not sent ${join(outside, 'shadow')}: ${outsideWhy}`));
      expect(paneText).toContain(flat(`not sent ${join(home.dir, 'config.json')}: one of larkmux's own files`));
      expect(paneText).toContain(flat(`sent ${join(home.dir, 'link-in.md')}`));
      expect(paneText).toContain(flat(`sent ${join(extra, 'shared.txt')}`));

      expect(fake.fileUploads.map((u) => [u.fileName, u.bytes.toString('utf8')]).sort()).toEqual([
        ['link-in.md', '# report\n'],
        ['shared.txt', 'from the configured root\n'],
      ]);
    } finally {
      rmSync(extra, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
