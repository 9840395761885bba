// The ledger line made of an ended turn (elapsed by the CLI's clock when it has one, else the daemon's; shells have no
// usage), and the turn card's footer made of the same figures.
import { describe, expect, it } from 'vitest';
import { usageEntryOf, usageFooter, type EndedTurn } from '../../src/daemon/sessions/usage-recorder.js';
import { translator } from '../../src/shared/i18n.js';
import { renderCard } from '../../src/daemon/im/lark/cards.js';
import type { StreamingCard } from '../../src/shared/card-model.js';
import type { TurnUsage } from '../../src/shared/usage.js';
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

describe('usageFooter', () => {
  const u = (o: Partial<TurnUsage> = {}): TurnUsage => ({ inputTokens: 31, outputTokens: 7, cacheReadTokens: 4, cacheWriteTokens: 0, ...o });
  it.each([
    { name: 'everything Claude Code reports', usage: u({ model: 'claude-opus-5-5', contextTokens: 35 }), elapsed: 4230, locale: 'en' as const, want: 'claude-opus-5-5 · context 35 · 42 tokens · 4.2s' },
    { name: 'Codex: the context against its window', usage: u({ model: 'gpt-5', contextTokens: 35_000, contextWindow: 258_400 }), elapsed: 38_400, locale: 'en' as const, want: 'gpt-5 · context 35k/258k · 42 tokens · 38s' },
    { name: 'no model, no context, no elapsed: just the tokens', usage: u(), elapsed: undefined, locale: 'en' as const, want: '42 tokens' },
    { name: 'zh-CN, minutes', usage: u({ model: 'gemini-3.1-pro-preview', contextTokens: 1_234_567 }), elapsed: 185_000, locale: 'zh-CN' as const, want: 'gemini-3.1-pro-preview · 上下文 1.2M · 42 token · 3 分 05 秒' },
  ])('$name', ({ usage, elapsed, locale, want }) => {
    expect(usageFooter(usage, elapsed, translator(locale))).toBe(want);
  });
});

describe('the footer on the Feishu turn card', () => {
  const card = (footer?: string, frozen = false): StreamingCard => ({
    kind: 'stream', sessionId: 's1', title: 'dev · app', status: 'idle', display: 'hidden', keys: ['esc'], buttons: [], frozen, ...(footer ? { footer } : {}),
  });
  const last = (c: Record<string, unknown>) => (c.body as { elements: Record<string, unknown>[] }).elements.at(-1);
  it.each([
    { name: 'below the buttons of a live card', frozen: false },
    { name: 'kept on a frozen card', frozen: true },
  ])('$name', ({ frozen }) => {
    expect(last(renderCard(card('claude-opus-5-5 · context 35 · 42 tokens · 4.2s', frozen), 'en'))).toEqual({ tag: 'markdown', content: 'claude-opus-5-5 · context 35 · 42 tokens · 4.2s' });
  });
  it('no footer: no element for it; markdown in a model name is escaped', () => {
    expect(JSON.stringify(renderCard(card(), 'en'))).not.toContain('tokens');
    expect(String(last(renderCard(card('<at id=all></at> · 1 tokens'), 'en'))?.content)).not.toContain('<at');
  });
});
