// Transcript parsers over real JSONL: user turns, turn ends (not tool steps), final text, native ids; and the file tail.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClaudeTranscriptParser } from '../../src/worker/transcript/claude-code.js';
import { CodexTranscriptParser } from '../../src/worker/transcript/codex.js';
import { GeminiTranscriptParser } from '../../src/worker/transcript/gemini.js';
import { JsonlTail, type TailLine } from '../../src/worker/transcript/jsonl-tail.js';
import { parseAll, type TranscriptEvent } from '../../src/worker/transcript/types.js';

const DIR = join(import.meta.dirname, '../fixtures/transcripts');
const records = (name: string): unknown[] => readFileSync(join(DIR, name), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);
/** The turns without their usage (checked in transcript-usage.test.ts). */
const turns = (events: TranscriptEvent[]) =>
  events.filter((e) => e.kind !== 'identity').map((e) => (e.kind === 'turn_end' ? { kind: e.kind, finalText: e.finalText } : e));

describe('Claude Code transcript', () => {
  it('session 1: three turns; the tool turn ends once, with the text after the tool', () => {
    const ev = parseAll(new ClaudeTranscriptParser(), records('claude-session.jsonl'));
    expect(ev[0]).toEqual({ kind: 'identity', nativeSessionId: '0d84ddc5-c63c-4667-835b-a1aca94ceb41' });
    expect(turns(ev)).toEqual([
      { kind: 'user_turn', text: 'hello from probe one' },
      { kind: 'turn_end', finalText: 'FAKE-REPLY: hello from probe one' },
      { kind: 'user_turn', text: 'SLOW busy check' },
      { kind: 'turn_end', finalText: 'FAKE-REPLY: SLOW busy check' },
      { kind: 'user_turn', text: 'please RUN_TOOL' },
      { kind: 'turn_end', finalText: 'FAKE-REPLY: tool said: hi' },
    ]);
  });

  it('session 2: rejected tool (no end), multi-line and pasted prompts, queued prompt, interrupted turn, resume', () => {
    const ev = turns(parseAll(new ClaudeTranscriptParser(), records('claude-session-2.jsonl')));
    const users = ev.filter((e) => e.kind === 'user_turn').map((e) => (e.kind === 'user_turn' ? e.text.slice(0, 40) : ''));
    expect(ev.find((e) => e.kind === 'user_turn' && e.text.startsWith('line one'))).toEqual({ kind: 'user_turn', text: 'line one of paste\nline two MULTILINE\nline three' });
    expect(users).toEqual([
      'please RUN_TOOL',
      'please RUN_TOOL: touch made-by-tool.txt',
      'please RUN_TOOL: rm -f made-by-tool.txt',
      'line one of paste\nline two MULTILINE\nlin',
      'line one of paste\nline two MULTILINE\nlin',
      '\n\n<pasted_content id="cf4c">\nbig paste l',
      'SLOW first',
      'second while busy',
      'SLOW to be interrupted',
      'after resume RUN_TOOL: touch bypass.txt',
    ]);
    // The rejected-tool turn and the interrupted turn write no turn_duration: 10 prompts, 8 ends.
    const ends = ev.filter((e) => e.kind === 'turn_end');
    expect(ends).toHaveLength(8);
    expect(ends[0]).toEqual({ kind: 'turn_end', finalText: 'FAKE-REPLY: tool said: hi' });
    expect(ends[6]).toEqual({ kind: 'turn_end', finalText: 'FAKE-REPLY: second while busy' });
    expect(ends[7]).toEqual({ kind: 'turn_end', finalText: 'FAKE-REPLY: tool said: (Bash completed with no output)' });
    // "[Request interrupted by user for tool use]" and tool results are not prompts.
    expect(users.some((u) => u.startsWith('[Request interrupted'))).toBe(false);
  });

  it('steered prompts (2.1.332): taken in at a tool result they are absorbed, not turns; with no tool left, a prompt of their own', () => {
    // Typed + Enter while Claude worked: during a 60 s Bash call; during a slow answer; during a 40 s Bash call
    // followed by ctrl+x ctrl+s (the call went to the background and the prompt to the model at once).
    // (The backgrounded call's end then comes as a <task-notification> prompt of its own: not looked at here.)
    const ev = parseAll(new ClaudeTranscriptParser(), records('claude-steered.jsonl'));
    const said = ev.flatMap((e) => (e.kind === 'identity' ? [] : [e.kind === 'turn_end' ? `end: ${e.finalText}` : `${e.kind}: ${e.text}`])).slice(0, 10);
    expect(said).toEqual([
      'user_turn: RUN_TOOL: timeout 60 tail -f /dev/null',
      `absorbed_prompt: steer 你好 $(echo hi) "q" it's`,
      'end: FAKE-REPLY: tool said: Exit code 124',
      'user_turn: SLOW answer please',
      'end: FAKE-REPLY: SLOW answer please',
      'user_turn: second 世界 $(id) "x"',
      'end: FAKE-REPLY: second 世界 $(id) "x"',
      'user_turn: RUN_TOOL: timeout 40 tail -f /dev/null',
      'absorbed_prompt: now 三 please',
      expect.stringMatching(/^end: FAKE-REPLY: tool said: Command was moved to the background/),
    ]);
  });

  it('an assistant record that stops for tool_use is not a turn end', () => {
    const p = new ClaudeTranscriptParser();
    const lines = records('claude-session.jsonl');
    const toolStep = lines.findIndex((r) => JSON.stringify(r).includes('"stop_reason":"tool_use"'));
    const events = lines.slice(0, toolStep + 2).flatMap((r) => p.push(r));
    expect(events.filter((e) => e.kind === 'turn_end')).toHaveLength(2);
  });
});

describe('Codex rollout', () => {
  it('a message typed while Codex worked (0.171) is absorbed into the running turn: same turn_id, one task_complete', () => {
    const ev = parseAll(new CodexTranscriptParser(), records('codex-rollout-steered.jsonl'));
    const said = ev.flatMap((e) => (e.kind === 'identity' ? [] : [e.kind === 'turn_end' ? `end: ${e.finalText}` : `${e.kind}: ${e.text}`]));
    expect(said).toEqual([
      'user_turn: RUN_TOOL: timeout 40 tail -f /dev/null',
      'absorbed_prompt: codex steer 你好 $(echo hi) "q"',
      'end: FAKE-REPLY: codex steer 你好 $(echo hi) "q"',
    ]);
  });

  it('four turns ended by task_complete; tool steps in between are not ends', () => {
    const ev = parseAll(new CodexTranscriptParser(), records('codex-rollout.jsonl'));
    expect(ev[0]).toEqual({ kind: 'identity', nativeSessionId: '01a22b7b-ef3f-7cd0-ac25-100038391bf1' });
    const t = turns(ev);
    expect(t.map((e) => e.kind)).toEqual(['user_turn', 'turn_end', 'user_turn', 'turn_end', 'user_turn', 'turn_end', 'user_turn', 'turn_end']);
    expect(t[0]).toEqual({ kind: 'user_turn', text: 'hello from codex probe' });
    expect(t[1]).toEqual({ kind: 'turn_end', finalText: 'FAKE-REPLY: hello from codex probe' });
    expect(t[4]).toEqual({ kind: 'user_turn', text: 'please RUN_TOOL' });
    expect(t[5]!.kind === 'turn_end' && t[5]!.finalText.startsWith('FAKE-REPLY: tool said: Chunk ID: a56550')).toBe(true);
  });
});

describe('Gemini chat', () => {
  it('three turns; the reply re-appended with toolCalls is not an end; the final one is', () => {
    const ev = parseAll(new GeminiTranscriptParser(), records('gemini-chat.jsonl'));
    expect(ev[0]).toEqual({ kind: 'identity', nativeSessionId: '0b9fb1ca-4db0-4a6b-aa6b-99e91ce195a3' });
    expect(turns(ev)).toEqual([
      { kind: 'user_turn', text: 'hello from gemini probe' },
      { kind: 'turn_end', finalText: 'FAKE-REPLY: hello from gemini probe' },
      { kind: 'user_turn', text: 'SLOW gemini busy' },
      { kind: 'turn_end', finalText: 'FAKE-REPLY: SLOW gemini busy' },
      { kind: 'user_turn', text: 'please RUN_TOOL: touch gem.txt' },
      { kind: 'turn_end', finalText: 'FAKE-REPLY: tool said: <untrusted_context>\nOutput: (empty)\nProcess Group PGID: 24927\n</untrusted_context>' },
    ]);
  });
  it('a reply is only a candidate until the file settles', () => {
    const p = new GeminiTranscriptParser();
    expect(p.push({ id: 'u1', type: 'user', content: [{ text: 'hi' }] })).toEqual([{ kind: 'user_turn', text: 'hi' }]);
    expect(p.push({ id: 'g1', type: 'gemini', content: 'hello' })).toEqual([]);
    expect(p.settle()).toEqual([{ kind: 'turn_end', finalText: 'hello' }]);
    expect(p.push({ id: 'g1', type: 'gemini', content: 'hello', tokens: {} })).toEqual([]);
    expect(p.settle()).toEqual([]);
  });
});

describe('JsonlTail', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('delivers whole lines only, keeps a partial last line for later, and resumes from an offset', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lmx-tail-'));
    const file = join(dir, 't.jsonl');
    const seen: TailLine[] = [];
    const tail = new JsonlTail({ path: file, onLine: (l) => seen.push(l) });
    await tail.poll(); // file missing: nothing, no error
    writeFileSync(file, '{"a":1}\n{"b":');
    await tail.poll();
    expect(seen.map((l) => l.ok && l.record)).toEqual([{ a: 1 }]);
    appendFileSync(file, '"é"}\nnot json\n');
    await tail.poll();
    expect(seen.map((l) => (l.ok ? l.record : `bad:${l.line}`))).toEqual([{ a: 1 }, { b: 'é' }, 'bad:not json']);
    expect(tail.offset).toBe(Buffer.byteLength('{"a":1}\n{"b":"é"}\nnot json\n'));
    tail.dispose();

    const again: unknown[] = [];
    const resumed = new JsonlTail({ path: file, offset: Buffer.byteLength('{"a":1}\n'), onLine: (l) => l.ok && again.push(l.record) });
    await resumed.poll();
    expect(again).toEqual([{ b: 'é' }]);
    resumed.dispose();
  });

  it('while idle it polls once a minute but a file change still wakes it (fs.watch)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lmx-tail-'));
    const file = join(dir, 't.jsonl');
    writeFileSync(file, '');
    const seen: unknown[] = [];
    const tail = new JsonlTail({ path: file, onLine: (l) => l.ok && seen.push(l.record) });
    tail.start();
    await tail.poll();
    tail.setPace('idle');
    appendFileSync(file, '{"late":true}\n');
    const deadline = Date.now() + 20_000; // far below the minute-long idle poll: only the watch can deliver it
    while (seen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    tail.dispose();
    expect(seen).toEqual([{ late: true }]);
  });

  it('waits for a locator to name the file, and restarts at 0 when the file shrinks', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lmx-tail-'));
    const file = join(dir, 'late.jsonl');
    let named = false;
    const seen: unknown[] = [];
    let resets = 0;
    const tail = new JsonlTail({ path: async () => (named ? file : null), onLine: (l) => l.ok && seen.push(l.record), onReset: () => resets++ });
    writeFileSync(file, '{"n":1}\n');
    await tail.poll();
    expect(seen).toEqual([]);
    named = true;
    await tail.poll();
    writeFileSync(file, '{"n":2}\n'.slice(0, 3) + '\n');
    await tail.poll();
    expect(resets).toBe(1);
    expect(seen[0]).toEqual({ n: 1 });
    tail.dispose();
  });
});
