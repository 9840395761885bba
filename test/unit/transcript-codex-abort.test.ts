// Codex rollouts with turns stopped early (a refused approval, Esc): each ends with one turn_end carrying a final text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODEX_ABORT_TEXT, CodexTranscriptParser, codexAbortText } from '../../src/worker/transcript/codex.js';
import { parseAll, type TranscriptEvent } from '../../src/worker/transcript/types.js';

const DIR = join(import.meta.dirname, '../fixtures/transcripts');
const records = (name: string): unknown[] => readFileSync(join(DIR, name), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);
/** The turns without their usage (checked in transcript-usage.test.ts). */
const turns = (events: TranscriptEvent[]) =>
  events.filter((e) => e.kind !== 'identity').map((e) => (e.kind === 'turn_end' ? { kind: e.kind, finalText: e.finalText } : e));

/** Minimal rollout records, shaped like the real ones in the fixtures. */
const R = {
  user: (text: string) => ({ type: 'event_msg', payload: { type: 'item_completed', item: { type: 'UserMessage', content: [{ type: 'text', text }] } } }),
  agent: (text: string) => ({ type: 'event_msg', payload: { type: 'item_completed', item: { type: 'AgentMessage', content: [{ type: 'Text', text }] } } }),
  call: (callId: string, args: unknown) => ({ type: 'response_item', payload: { type: 'function_call', name: 'exec_command', call_id: callId, arguments: typeof args === 'string' ? args : JSON.stringify(args) } }),
  output: (callId: string, output: string) => ({ type: 'response_item', payload: { type: 'function_call_output', call_id: callId, output } }),
  aborted: (reason: string, turn = 't1', root = 't1') => ({ type: 'event_msg', payload: { type: 'turn_aborted', turn_id: turn, root_turn_id: root, reason } }),
  complete: (last: string) => ({ type: 'event_msg', payload: { type: 'task_complete', turn_id: 't1', root_turn_id: 't1', last_agent_message: last } }),
};

describe('Codex rollout: real aborted turns', () => {
  it('a refused approval ends the turn with the assistant text and the refusal; the next prompt is its own turn', () => {
    const ev = parseAll(new CodexTranscriptParser(), records('codex-rollout-refused.jsonl'));
    expect(ev[0]).toEqual({ kind: 'identity', nativeSessionId: '01a22c20-df52-7042-a620-4f8bb114dd61' });
    expect(turns(ev)).toEqual([
      { kind: 'user_turn', text: 'hello first' },
      { kind: 'turn_end', finalText: 'FAKE-REPLY: hello first' },
      { kind: 'user_turn', text: 'MAKE-FILE no.txt' },
      { kind: 'turn_end', finalText: 'FAKE-REPLY: running touch no.txt\n\n(Conversation interrupted: the request to run `touch no.txt` was refused)' },
      { kind: 'user_turn', text: 'after refusal' },
      { kind: 'turn_end', finalText: 'FAKE-REPLY: after refusal' },
    ]);
  });

  it('Esc while the model is thinking ends the turn with no assistant text', () => {
    const ev = parseAll(new CodexTranscriptParser(), records('codex-rollout-interrupted.jsonl'));
    expect(turns(ev)).toEqual([
      { kind: 'user_turn', text: 'SLOW interrupt me' },
      { kind: 'turn_end', finalText: CODEX_ABORT_TEXT.interrupted },
    ]);
  });

  it('the <turn_aborted> harness message is not a user turn', () => {
    const ev = parseAll(new CodexTranscriptParser(), records('codex-rollout-refused.jsonl'));
    expect(ev.some((e) => e.kind === 'user_turn' && e.text.includes('turn_aborted'))).toBe(false);
  });
});

describe('Codex rollout: how an aborted turn ends', () => {
  const cases: Array<{ name: string; records: unknown[]; ends: string[] }> = [
    {
      name: 'refused call named by its cmd, no assistant text',
      records: [R.user('go'), R.call('c1', { cmd: 'rm -rf build' }), R.output('c1', 'Wall time: 1.0 seconds\naborted by user'), R.aborted('interrupted')],
      ends: ['(Conversation interrupted: the request to run `rm -rf build` was refused)'],
    },
    {
      name: 'refused call with an argv command (older shells)',
      records: [R.user('go'), R.call('c1', { command: ['touch', 'x'] }), R.output('c1', 'aborted by user'), R.aborted('interrupted')],
      ends: ['(Conversation interrupted: the request to run `touch x` was refused)'],
    },
    {
      name: 'refused call whose arguments are not JSON',
      records: [R.user('go'), R.agent('I will patch it.'), R.call('c1', 'not json'), R.output('c1', 'aborted by user'), R.aborted('interrupted')],
      ends: ['I will patch it.\n\n(Conversation interrupted: the tool call was refused)'],
    },
    {
      name: 'a call that ran, then Esc: interrupted, not refused',
      records: [R.user('go'), R.agent('running it'), R.call('c1', { cmd: 'ls' }), R.output('c1', 'Process exited with code 0\nOutput:\na'), R.aborted('interrupted')],
      ends: ['running it\n\n(Conversation interrupted)'],
    },
    {
      name: 'another abort reason is named',
      records: [R.user('go'), R.aborted('review_ended')],
      ends: ['(Conversation interrupted: review ended)'],
    },
    {
      name: "a sub-agent's aborted turn does not end the user's turn",
      records: [R.user('go'), R.aborted('interrupted', 'sub', 't1'), R.complete('done')],
      ends: ['done'],
    },
    {
      name: 'a refusal does not leak into the next turn',
      records: [R.user('a'), R.call('c1', { cmd: 'touch a' }), R.output('c1', 'aborted by user'), R.aborted('interrupted'), R.user('b'), R.aborted('interrupted')],
      ends: ['(Conversation interrupted: the request to run `touch a` was refused)', '(Conversation interrupted)'],
    },
  ];
  it.each(cases)('$name', ({ records: recs, ends }) => {
    const ev = parseAll(new CodexTranscriptParser(), recs);
    expect(ev.flatMap((e) => (e.kind === 'turn_end' ? [e.finalText] : []))).toEqual(ends);
  });

  it.each([
    { last: '', reason: 'interrupted', refused: null, text: '(Conversation interrupted)' },
    { last: '', reason: undefined, refused: null, text: '(Conversation interrupted)' },
    { last: 'hi', reason: 'replaced', refused: null, text: 'hi\n\n(Conversation interrupted: replaced)' },
    { last: 'hi', reason: 'interrupted', refused: {}, text: 'hi\n\n(Conversation interrupted: the tool call was refused)' },
  ])('codexAbortText($last, $reason, $refused)', ({ last, reason, refused, text }) => {
    expect(codexAbortText(last, reason, refused)).toBe(text);
  });
});
