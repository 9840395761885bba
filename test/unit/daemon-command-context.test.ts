// The bot's CommandContext reaching a session's worker: what the card and the command share (one effect each).
import { describe, expect, it } from 'vitest';
import { BotCommandContext } from '../../src/daemon/bots/bot-command-context.js';
import type { BotRuntimeHandle } from '../../src/daemon/bots/bot-runtime-handle.js';
import { NO_GRANTS } from '../../src/daemon/ground/permissions.js';
import { anchorOf } from '../../src/daemon/inbound/router.js';
import { newSessionCore, type SessionCore } from '../../src/daemon/ground/session-core.js';
import { SessionWorker, type WorkerChannel } from '../../src/daemon/workers/session-worker.js';
import type { DaemonToWorker, DisplayMode } from '../../src/shared/ipc.js';
import { translator } from '../../src/shared/i18n.js';

const APP = 'cli_0123456789abcdef';

/** A pool holding one session's worker, running or asleep (a wake starts it). */
class OneWorker implements WorkerChannel {
  readonly sent: DaemonToWorker[] = [];
  woken = 0;
  constructor(public running: boolean) {}
  has(): boolean {
    return this.running;
  }
  send(_id: string, msg: DaemonToWorker): boolean {
    if (!this.running) return false;
    this.sent.push(msg);
    return true;
  }
}

function rig(running: boolean) {
  const session: SessionCore = newSessionCore({ appId: APP, anchorId: 'oc_chat', scope: 'chat', chatId: 'oc_chat', chatType: 'p2p', cli: 'claude-code', cwd: '/w', ownerId: 'ou_admin', now: 0 });
  const pool = new OneWorker(running);
  const cardModes: DisplayMode[] = [];
  const worker = (s: SessionCore) => new SessionWorker(s.id, pool, () => {
    pool.woken++;
    pool.running = true;
    return true;
  });
  // Only what BotCommandContext touches on these paths; the cast stands for the members it does not reach. The
  // session owner's own setDisplay (cards and worker together) is tested with a real SessionService in
  // test/integration/session-service.test.ts; here it records the card's mode and sends through the real SessionWorker.
  const rt = {
    bot: { name: 'claude', appId: APP, cli: 'claude-code', workingDir: '/w', projects: [], allowedUsers: ['ou_admin'], allowedChats: [] },
    t: translator('en'),
    grants: () => NO_GRANTS,
    sessions: {
      get: (id: string) => (id === session.id ? session : undefined),
      worker,
      setDisplay: async (s: SessionCore, m: DisplayMode) => {
        cardModes.push(m);
        return worker(s).setDisplay(m);
      },
    },
  } as unknown as BotRuntimeHandle;
  const anchor = anchorOf(
    { kind: 'message', appId: APP, messageId: 'om_1', place: { chatId: 'oc_chat', chatType: 'p2p' }, senderId: 'ou_admin', senderType: 'user', text: '', mentionsBot: false, createTime: 0 },
    { appId: APP, groupScope: 'thread' },
  );
  return { ctx: new BotCommandContext(rt, anchor, { userId: 'ou_admin', name: 'Alice' }), session, pool, cardModes };
}

describe('BotCommandContext → worker', () => {
  it('setDisplay changes the card and tells a running worker', async () => {
    const r = rig(true);
    expect(await r.ctx.setDisplay(r.session.id, 'text')).toEqual({ ok: true });
    expect(r.cardModes).toEqual(['text']);
    expect(r.pool.sent).toEqual([{ type: 'set_display', mode: 'text' }]);
  });
  it('setDisplay leaves a sleeping worker asleep (it gets the mode when it starts)', async () => {
    const r = rig(false);
    expect(await r.ctx.setDisplay(r.session.id, 'hidden')).toEqual({ ok: true });
    expect(r.cardModes).toEqual(['hidden']);
    expect(r.pool.woken).toBe(0);
    expect(r.pool.sent).toEqual([]);
  });
  it('pressKey wakes a sleeping worker and sends the key as the invoker', async () => {
    const r = rig(false);
    expect(await r.ctx.pressKey(r.session.id, 'esc')).toEqual({ ok: true });
    expect(r.pool.woken).toBe(1);
    expect(r.pool.sent).toEqual([{ type: 'key', key: 'esc', by: { userId: 'ou_admin', name: 'Alice' } }]);
  });
  it('postScreen asks the worker for a capture; an unknown session is an error, not a send', async () => {
    const r = rig(true);
    expect(await r.ctx.postScreen(r.session.id)).toEqual({ ok: true });
    expect(r.pool.sent).toEqual([{ type: 'capture_now' }]);
    expect(await r.ctx.pressKey('f'.repeat(32), 'esc')).toMatchObject({ ok: false, code: 'unknown_session' });
    expect(r.pool.sent).toHaveLength(1);
  });
});
