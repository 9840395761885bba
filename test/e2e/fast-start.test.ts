// Fast start (issue 14): the daemon answers `status` at once, says `restoring` until every stored session is
// registered and `ready` (with counts) after, and a log line marks the end. Real daemon, fake Feishu.
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { newSessionCore } from '../../src/daemon/ground/session-core.js';
import { STORE_FORMAT_VERSION } from '../../src/platform/durable-file.js';
import { controlCall } from '../../src/platform/control-client.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';

const STORED = 60;

describe('fast start', () => {
  let rig: E2eRig | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
  });

  it('status says restoring, then ready with every stored session registered; the log marks the end', async () => {
    rig = await startRig();
    const r = rig;
    const appId = r.appIds[0]!;
    const now = Date.now();
    const records = Array.from({ length: STORED }, (_, i) => ({
      ...newSessionCore({ appId, anchorId: `oc_stored${String(i).padStart(3, '0')}`, scope: 'chat', chatId: `oc_stored${i}`, chatType: 'p2p', cli: 'shell', cwd: r.home.dir, ownerId: r.user, now: now - i * 1000 }),
      status: 'idle',
      lifecycle: 'stopped',
    }));
    writeFileSync(r.home.paths.sessionStore(appId), JSON.stringify({ format: 'larkmux-sessions', version: STORE_FORMAT_VERSION, records }));

    // Every answer from the first one on, while `larkmux start` runs.
    const seen: any[] = [];
    let starting = true;
    const poll = (async () => {
      while (starting) {
        const res = await controlCall(r.home.paths.controlSocket, { cmd: 'status' }, 5000);
        if (res.ok) seen.push(res.data);
        await new Promise((res2) => setTimeout(res2, 5));
      }
    })();
    await r.start();
    starting = false;
    await poll;

    const final = await r.status();
    expect(final.restore).toMatchObject({ state: 'ready', sessions: STORED, bots: 1, botsTotal: 1 });
    expect(typeof final.restore.tookMs).toBe('number');
    // The existing fields stay.
    expect(final.sessions).toHaveLength(STORED);
    expect(final.workers).toBe(0);
    expect(final.bots[0]).toMatchObject({ appId, state: 'connected' });
    // Never `ready` with a session missing; `restoring` only ever before `ready`.
    expect(seen.length).toBeGreaterThan(0);
    for (const st of seen) {
      expect(['restoring', 'ready']).toContain(st.restore.state);
      if (st.restore.state === 'ready') expect(st.sessions).toHaveLength(STORED);
    }
    const firstReady = seen.findIndex((st) => st.restore.state === 'ready');
    if (firstReady >= 0) expect(seen.slice(firstReady).every((st) => st.restore.state === 'ready')).toBe(true);
    const line = r.logText().split('\n').find((l) => l.includes('restoring finished'));
    expect(line, 'a log line marks the end of restoring').toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ sessions: STORED, bots: 1 });
    // Restoring comes before connecting: the line precedes the bot's first connection state.
    const text = r.logText();
    expect(text.indexOf('restoring finished')).toBeLessThan(text.indexOf('"connection state"'));
  }, 120_000);
});
