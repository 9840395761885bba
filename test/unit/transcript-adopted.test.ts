// A Claude taken over by /adopt: its transcript is found by time (no id was chosen), and its history is not a turn.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claudeProjectDirName, newestClaudeTranscript } from '../../src/worker/cli/claude-code.js';
import { ClaudeTranscriptParser } from '../../src/worker/transcript/claude-code.js';
import { parseAll, parserSince } from '../../src/worker/transcript/types.js';

const T0 = Date.parse('2026-12-01T10:00:00Z');
const rec = (at: number, r: Record<string, unknown>) => ({ sessionId: 'sess-1', timestamp: new Date(at).toISOString(), ...r });
const turn = (at: number, prompt: string, answer: string) => [
  rec(at, { type: 'user', message: { role: 'user', content: prompt } }),
  rec(at + 1, { type: 'assistant', message: { id: `m${at}`, content: [{ type: 'text', text: answer }] } }),
  rec(at + 2, { type: 'system', subtype: 'turn_duration' }),
];

describe('parserSince', () => {
  it('history before the take-over yields only the identity; the new turn comes through whole', () => {
    const events = parseAll(parserSince(new ClaudeTranscriptParser(), T0), [...turn(T0 - 60_000, 'old question', 'OLD'), ...turn(T0 + 5_000, 'new question', 'NEW')]);
    expect(events).toEqual([
      { kind: 'identity', nativeSessionId: 'sess-1' },
      { kind: 'user_turn', text: 'new question' },
      { kind: 'turn_end', finalText: 'NEW' },
    ]);
  });
});

describe('newestClaudeTranscript', () => {
  const home = mkdtempSync(join(tmpdir(), 'lmx-adopt-tr-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  it('takes the newest transcript of the folder written since the take-over, and none before', async () => {
    const cwd = '/w/my app';
    const dir = join(home, '.claude', 'projects', claudeProjectDirName(cwd));
    mkdirSync(dir, { recursive: true });
    const old = join(dir, 'old.jsonl');
    writeFileSync(old, '{}\n');
    utimesSync(old, new Date(T0 - 60_000), new Date(T0 - 60_000));
    expect(await newestClaudeTranscript(home, cwd, {}, T0)).toBeNull();
    const fresh = join(dir, 'fresh.jsonl');
    writeFileSync(fresh, '{}\n');
    utimesSync(fresh, new Date(T0 + 1_000), new Date(T0 + 1_000));
    writeFileSync(join(dir, 'notes.txt'), 'x');
    expect(await newestClaudeTranscript(home, cwd, {}, T0)).toBe(fresh);
    expect(await newestClaudeTranscript(home, '/w/other', {}, T0)).toBeNull();
  });
});
