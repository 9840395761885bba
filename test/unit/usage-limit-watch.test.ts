// The worker's usage-limit watch reads each screen without naming a time zone until a limit gives a reset time: a zone
// makes V8 load ICU's time-zone data, ~6.5 MB of RSS an idle worker carried from its first screen (issue 14's goal is
// ≤ 50 MB; it read 56.6).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/platform/log.js';
import type { WorkerToDaemon } from '../../src/shared/ipc.js';
import { adapterFor } from '../../src/worker/cli/registry.js';
import { UsageLimitWatch } from '../../src/worker/runtime/usage-limit-watch.js';

const screen = (name: string): string => readFileSync(join(import.meta.dirname, '../fixtures/screens', name), 'utf8');

afterEach(() => vi.restoreAllMocks());

it('names no time zone for ordinary screens, then reads a reset in the bot\'s TZ once a limit shows one', () => {
  const claude = adapterFor('claude-code');
  if (!claude.ok) throw new Error(claude.message);
  const Real = Intl.DateTimeFormat;
  // Counts the constructions and hands back the real formatter (a returned object stands for `new`'s own).
  const zones = vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (...args: ConstructorParameters<typeof Real>) {
    return new Real(...args);
  } as typeof Real);
  const sent: WorkerToDaemon[] = [];
  const watch = new UsageLimitWatch({ adapter: claude.adapter, env: { TZ: 'Asia/Shanghai' }, log: createLogger({ level: 'silent' }), send: (m) => sent.push(m) });
  watch.noteTurn('t1');
  for (const name of ['claude-04-idle-first.txt', 'claude-06-reply.txt', 'claude-30-limit-gave-up.txt']) watch.screen(screen(name));
  watch.turnEnded('t1', 'done, nothing to report');
  expect(zones).not.toHaveBeenCalled();
  // The limit without a reset time was still read and reported.
  expect(sent[0]).toMatchObject({ type: 'usage_limit', state: 'limited' });

  watch.screen("You've hit your limit · resets 11pm");
  expect(zones).toHaveBeenCalled();
  const last = sent.at(-1);
  if (last?.type !== 'usage_limit') throw new Error('no usage_limit report');
  expect(last.untilMs).toBeDefined();
  // 11pm in Asia/Shanghai is 15:00 UTC; the reset is the end of that minute.
  expect(new Date(last.untilMs!).toISOString()).toMatch(/T15:01:00\.000Z$/);
});
