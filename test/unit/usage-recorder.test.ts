// The ledger line made of an ended turn: elapsed by the CLI's clock when it has one, else the daemon's; shells have no usage.
import { describe, expect, it } from 'vitest';
import { usageEntryOf, type EndedTurn } from '../../src/daemon/sessions/usage-recorder.js';
import { UsageEntrySchema } from '../../src/shared/usage-ledger.js';

const AT = Date.parse('2026-12-04T10:00:05.000Z');
const base: EndedTurn = { at: AT, appId: 'cli_a', bot: 'dev', sessionId: 's1', cli: 'claude-code' };
const usage = { model: 'm', inputTokens: 10, outputTokens: 7, cacheReadTokens: 0, cacheWriteTokens: 0 };

describe('usageEntryOf', () => {
  it.each([
    { name: 'CLI elapsed wins over the daemon\'s', turn: { ...base, startedAt: AT - 5000, usage: { ...usage, elapsedMs: 4200 } }, want: { elapsedMs: 4200, usage: { ...usage, elapsedMs: 4200 } } },
    { name: 'no CLI elapsed: from the turn\'s start to its answer', turn: { ...base, startedAt: AT - 5000, usage }, want: { elapsedMs: 5000, usage } },
    { name: 'a shell turn: no usage, still an entry', turn: { ...base, cli: 'shell' as const, startedAt: AT - 300, userId: 'ou_1' }, want: { cli: 'shell', elapsedMs: 300, userId: 'ou_1' } },
    { name: 'a custom CLI is named by its command; no start known: no elapsed', turn: { ...base, cli: { command: 'aider', args: [], readyPattern: '>' } }, want: { cli: 'aider' } },
  ])('$name', ({ turn, want }) => {
    const e = usageEntryOf(turn);
    expect(UsageEntrySchema.parse(e)).toEqual(e);
    expect(e).toEqual({ v: 1, at: '2026-12-04T10:00:05.000Z', appId: 'cli_a', bot: 'dev', sessionId: 's1', cli: 'claude-code', ...want });
  });
});
