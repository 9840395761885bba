// One key for one session (issue 28 item 2): the order queue uses the router's session key, so two messages for one
// new session never run at once and never create two records — in a chat-scope group (every top-level message used to
// get its own queue) and in a direct chat mixing threaded and unthreaded messages (two queues for one session).
import { afterEach, describe, expect, it } from 'vitest';
import { textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';

describe('messages of one new session, 30 ms apart', () => {
  let rig: E2eRig | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
  });

  async function tmuxSessions(r: E2eRig): Promise<string[]> {
    const res = await r.tmux.run(['list-sessions', '-F', '#{session_name}']);
    return res.stdout.trim().split('\n').filter((s) => s.startsWith('lmx-'));
  }

  /** Both answers arrive, the first before the second, from one session record and one CLI. */
  async function expectOneSessionInOrder(r: E2eRig, chatId: string): Promise<void> {
    const appId = r.appIds[0]!;
    await r.fake.waitFor(() => textsIn(r.fake, appId, chatId).some((t) => t.includes('order-second-4')), 45_000, 'second answer');
    const texts = textsIn(r.fake, appId, chatId);
    const first = texts.findIndex((t) => t.includes('order-first-2'));
    const second = texts.findIndex((t) => t.includes('order-second-4'));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThan(second);
    const st = await r.status();
    expect(st.sessions).toHaveLength(1);
    expect(await tmuxSessions(r)).toHaveLength(1);
  }

  it('two top-level messages in a chat-scope group make one session and run one after the other', async () => {
    rig = await startRig({ botOverrides: { groupScope: 'chat' } });
    await rig.start();
    const appId = rig.appIds[0]!;
    const a = await rig.fake.injectMessage({ appId, chatType: 'group', text: 'echo order-first-$((1+1))', mentionBot: [appId] });
    await new Promise((r) => setTimeout(r, 30));
    await rig.fake.injectMessage({ appId, chatType: 'group', chatId: a.chatId, text: 'echo order-second-$((2+2))', mentionBot: [appId] });
    await expectOneSessionInOrder(rig, a.chatId);
  });

  it('an unthreaded and a threaded message in a direct chat make one session and run one after the other', async () => {
    rig = await startRig();
    await rig.start();
    const appId = rig.appIds[0]!;
    const a = await rig.fake.injectMessage({ appId, chatType: 'p2p', text: 'echo order-first-$((1+1))' });
    await new Promise((r) => setTimeout(r, 30));
    await rig.fake.injectMessage({ appId, chatType: 'p2p', chatId: a.chatId, rootId: a.messageId, text: 'echo order-second-$((2+2))' });
    await expectOneSessionInOrder(rig, a.chatId);
  });
});
