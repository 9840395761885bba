// Each turn's usage read from real transcripts of the pinned CLIs (Claude Code, Codex, Gemini) against the fake model.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TurnUsage } from '../../src/shared/usage.js';
import { ClaudeTranscriptParser } from '../../src/worker/transcript/claude-code.js';
import { CodexTranscriptParser } from '../../src/worker/transcript/codex.js';
import { GeminiTranscriptParser } from '../../src/worker/transcript/gemini.js';
import { parseAll, type TranscriptParser } from '../../src/worker/transcript/types.js';
import { UsageTally } from '../../src/worker/transcript/usage-tally.js';

const DIR = join(import.meta.dirname, '../fixtures/transcripts');
const records = (name: string): unknown[] => readFileSync(join(DIR, name), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);
const usages = (parser: TranscriptParser, file: string): (TurnUsage | undefined)[] =>
  parseAll(parser, records(file)).flatMap((e) => (e.kind === 'turn_end' ? [e.usage] : []));

const u = (model: string, input: number, output: number, context: number, extra: Partial<TurnUsage> = {}): TurnUsage => ({
  model, inputTokens: input, outputTokens: output, cacheReadTokens: 0, cacheWriteTokens: 0, contextTokens: context, ...extra,
});
const OPUS = 'claude-opus-5-5';
const GEM = 'gemini-3.1-pro-preview';
const WINDOW = { contextWindow: 258400 };

describe('usage per turn from real transcripts', () => {
  const cases: { name: string; parser: () => TranscriptParser; file: string; want: (TurnUsage | undefined)[] }[] = [
    {
      name: 'Claude Code: one call per plain turn; a tool turn sums its two calls, each counted once though written twice',
      parser: () => new ClaudeTranscriptParser(),
      file: 'claude-session.jsonl',
      want: [u(OPUS, 2940, 2, 2940, { elapsedMs: 580 }), u(OPUS, 2974, 2, 2974, { elapsedMs: 6142 }), u(OPUS, 3006 + 3081, 6 + 2, 3081, { elapsedMs: 491 })],
    },
    {
      name: 'Claude Code: a refused tool and an interrupted turn end no turn, so their calls are not billed to the next',
      parser: () => new ClaudeTranscriptParser(),
      file: 'claude-session-2.jsonl',
      want: [
        u(OPUS, 2815 + 2889, 6 + 2, 2889, { elapsedMs: 621 }),
        u(OPUS, 2933 + 3023, 7 + 3, 3023, { elapsedMs: 439 }),
        u(OPUS, 3248, 11, 3248, { elapsedMs: 284 }),
        u(OPUS, 3352, 17, 3352, { elapsedMs: 315 }),
        u(OPUS, 3615, 22, 3615, { elapsedMs: 420 }),
        u(OPUS, 3774, 1, 3774, { elapsedMs: 6156 }),
        u(OPUS, 3806, 2, 3806, { elapsedMs: 140 }),
        u(OPUS, 4009 + 4095, 6 + 3, 4095, { elapsedMs: 482 }),
      ],
    },
    {
      name: 'Codex: token_count per call, the model from turn_context, the window and duration from the rollout',
      parser: () => new CodexTranscriptParser(),
      file: 'codex-rollout.jsonl',
      want: [
        u('fake-model', 5748, 10, 5748, { ...WINDOW, elapsedMs: 613 }),
        u('fake-model', 5827, 10, 5827, { ...WINDOW, elapsedMs: 6197 }),
        u('fake-model', 5905 + 6044, 20, 6044, { ...WINDOW, elapsedMs: 611 }),
        u('fake-model', 6154 + 6400, 20, 6400, { ...WINDOW, elapsedMs: 521 }),
      ],
    },
    {
      name: 'Gemini: tokens per reply, the reply re-appended with its tool calls counted once; no elapsed of its own',
      parser: () => new GeminiTranscriptParser(),
      file: 'gemini-chat.jsonl',
      want: [u(GEM, 144, 10, 144), u(GEM, 176, 10, 176), u(GEM, 209 + 336, 20, 336)],
    },
  ];
  it.each(cases)('$name', ({ parser, file, want }) => {
    expect(usages(parser(), file)).toEqual(want);
  });

  it('Codex: the turns add up to the rollout\'s own running total', () => {
    const all = records('codex-rollout.jsonl');
    const last = [...all].reverse().find((r) => JSON.stringify(r).includes('"total_token_usage"')) as { payload: { info: { total_token_usage: { total_tokens: number } } } };
    const sum = usages(new CodexTranscriptParser(), 'codex-rollout.jsonl').reduce((a, x) => a + (x ? x.inputTokens + x.outputTokens + x.cacheReadTokens : 0), 0);
    expect(sum).toBe(last.payload.info.total_token_usage.total_tokens);
  });

  it('Codex: a repeated token_count (same running total) is not a second call', () => {
    const p = new CodexTranscriptParser();
    const tc = (input: number, total: number) => ({ type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { total_tokens: total }, last_token_usage: { input_tokens: input, cached_input_tokens: 40, output_tokens: 5 } } } });
    const ev = parseAll(p, [
      { type: 'event_msg', payload: { type: 'user_message', message: 'hi' } },
      tc(100, 105), tc(100, 105),
      { type: 'event_msg', payload: { type: 'task_complete', last_agent_message: 'ok' } },
    ]);
    expect(ev[1]).toEqual({ kind: 'turn_end', finalText: 'ok', usage: { inputTokens: 60, outputTokens: 5, cacheReadTokens: 40, cacheWriteTokens: 0, contextTokens: 100 } });
  });

  it('a turn with no usage record has no usage; a shell-like record stream never has one', () => {
    const ev = parseAll(new GeminiTranscriptParser(), [{ id: 'u', type: 'user', content: 'hi' }, { id: 'g', type: 'gemini', content: 'yo' }]);
    expect(ev).toEqual([{ kind: 'user_turn', text: 'hi' }, { kind: 'turn_end', finalText: 'yo' }]);
  });
});

describe('UsageTally', () => {
  const call = (input: number, model = 'm') => ({ model, inputTokens: input, outputTokens: 1, cacheReadTokens: 2, cacheWriteTokens: 3, contextTokens: input + 5 });
  it.each([
    { name: 'nothing added: no usage', adds: [] as [string | undefined, number, string][], want: undefined },
    { name: 'same id twice: counted once, last figures win', adds: [['a', 10, 'm'], ['a', 12, 'm']] as [string | undefined, number, string][], want: { model: 'm', inputTokens: 12, outputTokens: 1, cacheReadTokens: 2, cacheWriteTokens: 3, contextTokens: 17 } },
    { name: 'unnamed calls all count; the newest names the model', adds: [[undefined, 10, 'x'], [undefined, 20, 'y']] as [string | undefined, number, string][], want: { model: 'y', inputTokens: 30, outputTokens: 2, cacheReadTokens: 4, cacheWriteTokens: 6, contextTokens: 25 } },
  ])('$name', ({ adds, want }) => {
    const t = new UsageTally();
    for (const [id, input, model] of adds) t.add(id, call(input, model));
    expect(t.take()).toEqual(want);
    expect(t.take()).toBeUndefined();
  });
});
