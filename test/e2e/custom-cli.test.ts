// "Any terminal program": a custom CLI from config (command + readyPattern) driven end to end through the daemon.
import { afterEach, describe, expect, it } from 'vitest';
import { cardsFor, colourHistory, textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';

describe('custom CLI from config', () => {
  let rig: E2eRig | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
  });

  it('a Python REPL configured by command and readyPattern gets the message, proves delivery and answers', async () => {
    rig = await startRig({ botOverrides: { cli: { command: 'python3', args: ['-q', '-i'], readyPattern: '^>>> ?$' } } });
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const m = await fake.injectMessage({ chatType: 'p2p', text: 'print(6*7, "x" * 3)' });
    await fake.waitFor(() => textsIn(fake, appId, m.chatId).some((t) => t.includes('42 xxx')), 30_000, 'answer');
    await fake.waitFor(() => fake.reactions.some((r) => r.messageId === m.messageId), 10_000, 'delivery reaction');
    const card = cardsFor(fake, appId, m.messageId)[0]!;
    await fake.waitFor(() => colourHistory(card).at(-1) === 'green', 10_000, 'idle');
    // A second line reaches the same interpreter: state survives between messages.
    await fake.injectMessage({ chatType: 'p2p', chatId: m.chatId, text: 'answer = 40 + 2' });
    const third = await fake.injectMessage({ chatType: 'p2p', chatId: m.chatId, text: 'print(answer * 10)' });
    await fake.waitFor(() => textsIn(fake, appId, third.chatId).some((t) => t.includes('420')), 30_000, 'state kept');
    expect((await rig.status()).sessions).toHaveLength(1);
  });
});
