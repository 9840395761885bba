// The first half of a real-CLI usage-limit hold through the real daemon (cli-*-limit-hold e2e tests): the daemon
// starts, a prompt with the fake model's limit cue runs into the vendor's limit, the turn card says "Limited until" and
// the asker is mentioned, and a prompt sent during the hold is told it waits and is not in the CLI's own record.
import { randomBytes } from 'node:crypto';
import { expect, onTestFailed } from 'vitest';
import { cardsFor, markdownText, textsIn } from './cards.js';
import type { ClaudeWorld } from './claude-world.js';

/** `prompts`: what the CLI itself recorded as the person's prompts (its transcript or rollout), oldest first. */
export async function runIntoLimitHold(world: ClaudeWorld, prompts: () => string[], limitMs: number) {
  await world.rig.start();
  // A failure after the waits (a count that came out wrong) says what the daemon and the worker did about the hold.
  onTestFailed(() => {
    const lines = world.rig.logText().split('\n').filter((l) => /limit|hold|continu|input|deliver|clear|released|selection/i.test(l));
    process.stderr.write(`${lines.slice(-80).join('\n')}\n`);
  });
  const { rig: { fake, appIds: [appId] } } = world;
  if (!appId) throw new Error('the rig has no bot');
  const hit = 'please USAGE-LIMIT 90 now';
  const first = await fake.injectMessage({ chatType: 'p2p', text: hit });
  const { chatId } = first;
  const texts = () => textsIn(fake, appId, chatId);
  // A wait that times out says what the chat, the card, the CLI's record and the daemon's log had by then.
  const waitFor = <T>(pred: () => T, ms: number, what: string) =>
    fake.waitFor(pred, ms, what).catch((e: Error) => {
      const cards = fake.messages.filter((m) => m.appId === appId && m.msgType === 'interactive').map((m) => markdownText(m.content));
      const log = world.rig.logText().split('\n').filter((l) => /limit|hold|selection|usage|transition|input|deliver/i.test(l)).slice(-40);
      throw new Error(`${e.message}\ntexts: ${JSON.stringify(texts())}\ncards: ${JSON.stringify(cards)}\nprompts: ${JSON.stringify(prompts())}\nlog:\n${log.join('\n')}`);
    });
  const cardSays = (needle: string) => cardsFor(fake, appId, first.messageId).some((c) => c.history.some((v) => markdownText(v).includes(needle)));
  await waitFor(() => cardSays('Limited until'), limitMs, 'the turn card says limited');
  // hh:mm today, or with the date when the reset is on another day (the minute's end can pass midnight).
  expect(cardsFor(fake, appId, first.messageId).map((c) => markdownText(c.content)).join('\n')).toMatch(/Limited until (?:\d{4}-\d{2}-\d{2} )?\d{2}:\d{2}/);
  await waitFor(() => texts().some((t) => /<at user_id="[^"]+"><\/at>/.test(t) && t.includes('usage limit')), 30_000, 'the asker mentioned');

  const held = `held prompt ${randomBytes(6).toString('hex')}`;
  const second = await fake.injectMessage({ chatType: 'p2p', chatId, text: held });
  await waitFor(() => texts().some((t) => t.includes('Waits for the usage limit')), 30_000, 'the person told it waits');
  // While held: not in the CLI's own record, and no delivered reaction on it.
  expect(prompts()).not.toContain(held);
  expect(fake.reactions.some((r) => r.messageId === second.messageId)).toBe(false);
  return { fake, appId, chatId, hit, held, texts, waitFor };
}

/** The second half: after the reset the one `continue`, then the held prompt, reach the CLI exactly once each. */
export async function heldPromptAnsweredOnce(hold: Awaited<ReturnType<typeof runIntoLimitHold>>, prompts: () => string[]): Promise<void> {
  const { held, texts, waitFor } = hold;
  await waitFor(() => texts().some((t) => t.includes(`FAKE-REPLY: ${held}`)), 180_000, 'the held prompt answered');
  expect(prompts().filter((t) => t === held)).toHaveLength(1);
  expect(prompts().filter((t) => t === 'continue')).toHaveLength(1);
  expect(prompts().indexOf('continue')).toBeLessThan(prompts().indexOf(held));
  expect(texts().filter((t) => t.includes(`FAKE-REPLY: ${held}`))).toHaveLength(1);
}
