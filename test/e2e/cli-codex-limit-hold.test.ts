// Issue 30 item 3 end to end: the real daemon, the fake Feishu and the real Codex against its fake model server. The
// fake refuses the first prompt with Codex's usage limit (cue `USAGE-LIMIT 90`, reset in 25 real seconds); the daemon
// holds the session. A second prompt sent during the hold is not typed (Codex's own rollout does not have it) and its
// person is told it waits; after the reset (real seconds, Codex shows it to the minute, plus the hold's jitter) the
// held prompt reaches Codex exactly once, after the one "continue", with the "hold is over" notice.
import { randomBytes } from 'node:crypto';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buttons, cardsFor, markdownText, textsIn } from '../support/cards.js';
import { disposeClaudeWorld, startCodexWorld } from '../support/claude-world.js';
import { skipWithoutCli } from '../support/clis.js';
import { codexPrompts } from '../support/codex-rollout.js';

describe.skipIf(skipWithoutCli('codex'))('daemon + real Codex: a usage limit holds prompts', () => {
  it('says limited until hh:mm and mentions the asker; a prompt during the hold waits, then reaches Codex once', async () => {
    const world = await startCodexWorld({ bot: { locale: 'en' } });
    onTestFinished(() => disposeClaudeWorld(world));
    await world.rig.start();
    const { rig: { fake, appIds: [appId] }, home } = world;
    if (!appId) throw new Error('the rig has no bot');
    const prompts = () => codexPrompts(home).map((p) => p.text);
    const hit = 'please USAGE-LIMIT 90 now';
    const first = await fake.injectMessage({ chatType: 'p2p', text: hit });
    const { chatId } = first;
    // A wait that times out says what the chat, the card, Codex's rollout and the daemon's log had by then.
    const waitFor = <T>(pred: () => T, ms: number, what: string) =>
      fake.waitFor(pred, ms, what).catch((e: Error) => {
        const cards = fake.messages.filter((m) => m.appId === appId && m.msgType === 'interactive').map((m) => markdownText(m.content));
        const log = world.rig.logText().split('\n').filter((l) => /limit|hold|selection|usage|transition|input|deliver/i.test(l)).slice(-40);
        throw new Error(`${e.message}\ntexts: ${JSON.stringify(textsIn(fake, appId, chatId))}\ncards: ${JSON.stringify(cards)}\nrollout: ${JSON.stringify(prompts())}\nlog:\n${log.join('\n')}`);
      });
    const cardSays = (needle: string) => cardsFor(fake, appId, first.messageId).some((c) => c.history.some((v) => markdownText(v).includes(needle)));
    await waitFor(() => cardSays('Limited until'), 180_000, 'the turn card says limited');
    expect(cardsFor(fake, appId, first.messageId).map((c) => markdownText(c.content)).join('\n')).toMatch(/Limited until \d{2}:\d{2}/);
    await waitFor(() => textsIn(fake, appId, chatId).some((t) => /<at user_id="[^"]+"><\/at>/.test(t) && t.includes('usage limit')), 30_000, 'the asker mentioned');
    expect(prompts()).toEqual([hit]);

    const held = `held prompt ${randomBytes(6).toString('hex')}`;
    const second = await fake.injectMessage({ chatType: 'p2p', chatId, text: held });
    await waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('Waits for the usage limit')), 30_000, 'the person told it waits');
    // While held: not in Codex's own record, and no delivered reaction on it.
    expect(prompts()).not.toContain(held);
    expect(fake.reactions.some((r) => r.messageId === second.messageId)).toBe(false);

    await waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('The hold is over')), 180_000, 'the hold is over');
    // Codex's "Switch to gpt-…?" menu came up with the limit, on a selection card that mentions the asker; a hold never
    // answers it. While it stands the released prompts wait in the worker (not typed into the menu: without the tap
    // below nothing reaches the rollout). The person keeps the current model on the card; then they go, once each.
    const menu = fake.messages.find((m) => m.appId === appId && m.msgType === 'interactive' && markdownText(m.content).includes('Keep current model'));
    if (!menu) throw new Error('no menu card');
    expect(prompts()).not.toContain(held);
    const keep = buttons(menu.content).find((b) => b.includes('2'));
    if (!keep) throw new Error(`no "2" on the menu card: ${JSON.stringify(buttons(menu.content))}`);
    await fake.tapButton(menu.messageId, keep);
    await waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes(`FAKE-REPLY: ${held}`)), 180_000, 'the held prompt answered');
    expect(prompts().filter((t) => t === held)).toHaveLength(1);
    expect(prompts().filter((t) => t === 'continue')).toHaveLength(1);
    expect(prompts().indexOf('continue')).toBeLessThan(prompts().indexOf(held));
    expect(textsIn(fake, appId, chatId).filter((t) => t.includes(`FAKE-REPLY: ${held}`))).toHaveLength(1);
  }, 600_000);
});
