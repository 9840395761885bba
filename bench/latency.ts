// Latency of the main path with the real daemon, fake Feishu and a shell in tmux: a new session's first output, event → pane,
// and screen change → card image. `npm run bench -- latency first-output` measures only the first.
import { join } from 'node:path';
import { startRig, type E2eRig } from '../test/support/e2e-daemon.js';
import { textsIn } from '../test/support/cards.js';
import { lines, log, messageTimer, PaneWatcher, quantile, round, screenToCard, sleep, waitFor } from './support/pane-timing.js';

const BENCH = {
  /** Messages on the running session (issue 6: 50). */
  messages: 50,
  /**
   * A person reads the answer before typing the next message; 1 s is a fast one. Back-to-back messages are measured
   * separately: their input waits behind the freeze of the previous card, which may not be patched within 250 ms of its
   * last patch (Feishu's 5 updates/s per message).
   */
  pauseBetweenMessagesMs: 1_000,
  backToBackMessages: 10,
  /** Screen changes made by one long-running command. */
  ticks: 40,
  /** New sessions (each a new chat: worker fork, tmux session, shell start, first command) timed from the message. */
  coldStarts: 7,
} as const;

/** Issue 31: a new shell session shows its first output within 1.5 s of the message (it took 3.5 s with the settle). */
const TARGETS = { eventToPaneMedianMs: 100, screenToCardP95Ms: 3_000, coldStartFirstOutputMedianMs: 1_500 } as const;

/**
 * Message in a new chat → its first output: the command stamps the time it ran (its output shows in the pane the same
 * moment). Each chat is a new session, so every one pays the worker fork, the shell's start and the readiness gate.
 */
async function coldStarts(rig: E2eRig): Promise<number[]> {
  const took: number[] = [];
  for (let i = 0; i < BENCH.coldStarts; i++) {
    const stamp = join(rig.home.dir, `cold-${i}.txt`);
    const t0 = Date.now();
    await rig.fake.injectMessage({ chatType: 'p2p', text: `date +%s%N > ${stamp}` });
    const at = await waitFor(`cold start ${i + 1}`, () => lines(stamp)[0]);
    took.push(Number(at) / 1e6 - t0);
    log(`cold start ${i + 1}: first output ${round(took[i]!)} ms after the message`);
  }
  return took;
}

const coldStartNumbers = (took: number[]) => ({
  coldStarts: took.length,
  coldStartFirstOutputMedianMs: round(quantile(took, 0.5)),
  coldStartFirstOutputMaxMs: round(quantile(took, 1)),
  targetColdStartFirstOutputMedianMs: TARGETS.coldStartFirstOutputMedianMs,
  meetsColdStart: quantile(took, 0.5) <= TARGETS.coldStartFirstOutputMedianMs ? 1 : 0,
});

async function main(): Promise<void> {
  // The daemon as a user runs it (the build: its worker is the bundle), so start-up costs are the real ones.
  const rig: E2eRig = await startRig({ daemon: 'built' });
  let watcher: PaneWatcher | undefined;
  try {
    await rig.start();
    const cold = await coldStarts(rig);
    if (process.argv[2] === 'first-output') {
      process.stdout.write(`${JSON.stringify(coldStartNumbers(cold))}\n`);
      return;
    }
    const { fake, home } = rig;
    const appId = rig.appIds[0]!;
    const warm = await fake.injectMessage({ chatType: 'p2p', text: 'echo warm' });
    const chatId = warm.chatId;
    await waitFor('warm-up answer', () => textsIn(fake, appId, chatId).some((t) => t.includes('warm')));
    // The warm-up's session: the one active last (the cold starts' sessions came before it).
    const sessions = (await rig.status()).sessions as Array<{ tmuxName: string; lastActivityAt: number }>;
    const session = sessions.reduce((a, b) => (b.lastActivityAt > a.lastActivityAt ? b : a));
    watcher = new PaneWatcher(rig.tmux.socket, session.tmuxName);
    await sleep(500);

    // (i) event → pane: the typed text shows in the pane; and → the command runs (its own timestamp).
    const chat = { fake, appId, chatId, watcher, dir: home.dir, label: 'local' };
    const measure = messageTimer(chat);
    const { toPane, toRun } = await measure(BENCH.messages, BENCH.pauseBetweenMessagesMs);
    const backToBack = await measure(BENCH.backToBackMessages, 0);

    // (ii) screen change → card: one command repaints row 0 in a new colour at irregular moments while it runs.
    const { toCard, neverShown, shownPatches } = await screenToCard(chat, BENCH.ticks);

    const result = {
      ...coldStartNumbers(cold),
      messages: toPane.length,
      eventToPaneMedianMs: round(quantile(toPane, 0.5)),
      eventToPaneP95Ms: round(quantile(toPane, 0.95)),
      eventToCommandRunMedianMs: round(quantile(toRun, 0.5)),
      eventToCommandRunP95Ms: round(quantile(toRun, 0.95)),
      pauseBetweenMessagesMs: BENCH.pauseBetweenMessagesMs,
      backToBackMessages: backToBack.toPane.length,
      backToBackEventToPaneMedianMs: round(quantile(backToBack.toPane, 0.5)),
      backToBackEventToPaneP95Ms: round(quantile(backToBack.toPane, 0.95)),
      screenChanges: toCard.length + neverShown,
      screenChangesNeverShown: neverShown,
      screenToCardMedianMs: round(quantile(toCard, 0.5)),
      screenToCardP95Ms: round(quantile(toCard, 0.95)),
      screenToCardMaxMs: round(quantile(toCard, 1)),
      cardImagePatches: shownPatches,
      targetEventToPaneMedianMs: TARGETS.eventToPaneMedianMs,
      targetScreenToCardP95Ms: TARGETS.screenToCardP95Ms,
      meetsEventToPane: quantile(toPane, 0.5) <= TARGETS.eventToPaneMedianMs ? 1 : 0,
      meetsScreenToCard: neverShown === 0 && quantile(toCard, 0.95) <= TARGETS.screenToCardP95Ms ? 1 : 0,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    watcher?.dispose();
    await rig.cleanup();
  }
}

main().catch((e: unknown) => {
  log(`bench latency failed: ${(e as Error).stack ?? String(e)}`);
  process.exitCode = 1;
});
