// Control characters in chat text never become keystrokes (issue 13 finding 7): ESC, Ctrl+C and friends arrive in
// the pane as visible symbols, the rest of the message intact, and the card says why.
import { afterEach, describe, expect, it } from 'vitest';
import { cardsFor, markdownText, textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';

describe('control characters from chat', () => {
  let rig: E2eRig | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
  });

  it('ESC, Ctrl+C, Ctrl+U and a bracketed-paste end are typed as symbols; the command still runs whole', async () => {
    rig = await startRig();
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    // As keys, \x03 would cancel the line, \x15 erase it and \x1b start an escape sequence: nothing would print.
    const msg = await fake.injectMessage({ chatType: 'p2p', text: "printf '%s\\n' 'A\x1b[31mB\x03C\x15D\x1b[201~E' ctl-$((40+2))" });
    await fake.waitFor(() => textsIn(fake, appId, msg.chatId).some((t) => t.includes('ctl-42')), 60_000, 'answer');
    const answer = textsIn(fake, appId, msg.chatId).find((t) => t.includes('ctl-42'))!;
    expect(answer).toContain('A␛[31mB␃C␕D␛[201~E');
    const card = cardsFor(fake, appId, msg.messageId)[0]!;
    await fake.waitFor(() => /control character/.test(markdownText(card.content)) || /控制字符/.test(markdownText(card.content)), 20_000, 'notice');
  });
});
