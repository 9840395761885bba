// Each real CLI's usage-limit state (issue 30.3): the fake model server refuses as its vendor does (USAGE-LIMIT cue,
// test/support/fake-models), the real worker reads the CLI's own words and sends `usage_limit` `limited` once, with
// the reset the CLI shows; a later turn that goes through sends `clear`.
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkerToDaemon } from '../../src/shared/ipc.js';
import { skipWithoutCli, type TestCliName } from '../support/clis.js';
import { startCliRig, type CliRig } from '../support/cli-rig.js';

type Limit = Extract<WorkerToDaemon, { type: 'usage_limit' }>;
type Sel = Extract<WorkerToDaemon, { type: 'selection' }>;
type Final = Extract<WorkerToDaemon, { type: 'final_output' }>;
const isLimit = (state: Limit['state']) => (m: WorkerToDaemon): m is Limit => m.type === 'usage_limit' && m.state === state;
const isFinal = (turnId: string) => (m: WorkerToDaemon): m is Final => m.type === 'final_output' && m.turnId === turnId;

const RESET_S = 7_200;

/**
 * `untilShown`: the CLI shows when the limit resets (to the minute). `menu`: after the limit the CLI puts up a menu a
 * person answers (the option picked here keeps things as they were). `recoverMs`: how long the CLI takes before it
 * takes the next prompt (Claude retries ten times, about two and a half minutes, before it gives up).
 */
const CASES: { cli: TestCliName; untilShown: boolean; menu: RegExp | null; limitMs: number; recoverMs: number; excerpt: RegExp }[] = [
  { cli: 'claude', untilShown: true, menu: null, limitMs: 120_000, recoverMs: 280_000, excerpt: /5-hour limit reached · retrying in \d+s \(\d{1,2}:\d{2}[ap]m\)/ },
  { cli: 'codex', untilShown: true, menu: /^2\. Keep current model$/, limitMs: 120_000, recoverMs: 90_000, excerpt: /^You’ve hit your usage limit\..*try again at (?:[A-Z][a-z]{2} \d{1,2}(?:st|nd|rd|th), \d{4} )?\d{1,2}:\d{2} [AP]M\.$/ },
  { cli: 'gemini', untilShown: false, menu: /^\d\. Stop$/, limitMs: 300_000, recoverMs: 300_000, excerpt: /^Usage limit reached for .+\.$/ },
];

describe.each(CASES)('real $cli: usage limit', ({ cli, untilShown, menu, limitMs, recoverMs, excerpt }) => {
  let rig: CliRig | null = null;
  afterEach(async () => {
    await rig?.cleanup();
    rig = null;
  });

  it.skipIf(skipWithoutCli(cli))('limited once with the reset it shows, then clear when a later turn goes through', { timeout: 600_000 }, async () => {
    rig = await startCliRig({ name: cli, seed: true });
    const w = rig.worker;
    const sentAt = Date.now();
    w.input('hit', `please USAGE-LIMIT ${RESET_S} now`);
    const limited = await w.waitFor(isLimit('limited'), limitMs).catch(async (e: Error) => {
      throw new Error(`${e.message}\nscreen:\n${await w.capture()}`);
    });
    expect(limited.turnId).toBe('hit');
    expect(limited.excerpt).toMatch(excerpt);
    if (untilShown) {
      // Shown to the minute, in the pane's zone (the worker's): the end of that minute, so never before the reset the
      // fake set, and at most a minute after it.
      expect(limited.untilMs).toBeGreaterThanOrEqual(sentAt + RESET_S * 1000);
      expect(limited.untilMs).toBeLessThanOrEqual(Date.now() + RESET_S * 1000 + 60_000);
    } else {
      expect(limited.untilMs).toBeUndefined();
    }
    // The CLI's menus after the limit are a person's to answer (Gemini asks twice: for the router's model, then for
    // all Pro models); answer each as it comes, until the later turn goes through.
    w.input('after', 'hello after the limit');
    const answered = new Set<string>();
    const deadline = Date.now() + recoverMs + 60_000;
    let clear: Limit | undefined;
    while (!(clear = w.messages.find(isLimit('clear')))) {
      for (const sel of w.messages.filter((x): x is Sel => x.type === 'selection' && !answered.has(x.promptId))) {
        const i = menu ? sel.options.findIndex((o) => menu.test(o.label)) : -1;
        if (i < 0) continue;
        answered.add(sel.promptId);
        w.send({ type: 'selection_choice', promptId: sel.promptId, optionIndex: i });
      }
      if (Date.now() > deadline) throw new Error(`no clear; last messages: ${JSON.stringify(w.messages.filter((m) => m.type !== 'screen').slice(-8))}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    if (menu) expect(answered.size).toBeGreaterThan(0);
    expect(clear.turnId).toBe('after');
    const final = w.messages.find(isFinal('after'));
    expect(final?.text).toBe('FAKE-REPLY: hello after the limit');
    // Once per change of state: however many frames showed the limit, one `limited` and one `clear`.
    const told = w.messages.filter((m): m is Limit => m.type === 'usage_limit');
    expect(told.map((m) => m.state), JSON.stringify(told)).toEqual(['limited', 'clear']);
  });
});
