// The real Claude Code CLI driven by a real worker against the fake Anthropic server: the acceptance stories.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { WorkerToDaemon } from '../../src/shared/ipc.js';
import { claudePromptText } from '../../src/worker/transcript/claude-code.js';
import { skipWithoutCli } from '../support/clis.js';
import { startCliRig, type CliRig } from '../support/cli-rig.js';

type Final = Extract<WorkerToDaemon, { type: 'final_output' }>;
type Sel = Extract<WorkerToDaemon, { type: 'selection' }>;
const isFinal = (turnId: string) => (m: WorkerToDaemon): m is Final => m.type === 'final_output' && m.turnId === turnId;
const isSel = (kind: Sel['kind']) => (m: WorkerToDaemon): m is Sel => m.type === 'selection' && m.kind === kind;

/** `permissions.defaultMode: default`: Claude 2.1.332 otherwise runs in auto mode and never asks. */
const ASKING = { '.claude/settings.json': JSON.stringify({ permissions: { defaultMode: 'default' } }) };

function promptsIn(transcriptPath: string): string[] {
  return readFileSync(transcriptPath, 'utf8').split('\n').filter(Boolean).flatMap((l) => {
    const p = claudePromptText(JSON.parse(l) as Record<string, unknown>);
    return p === null ? [] : [p];
  });
}

/** How long after the first answer the screen is watched for Claude's tmux hint (it came within 1 s, for ~8 s). */
const HINT_WINDOW_MS = 10_000;

/** Captures the CLI's pane every 250 ms until stop() (or the test's end), which returns every screen seen. */
function watchScreens(r: CliRig): { stop(): Promise<string[]> } {
  const seen: string[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      seen.push(await r.worker.capture());
      await new Promise((res) => setTimeout(res, 250));
    }
  })();
  const stop = async () => {
    stopped = true;
    await loop;
    return seen;
  };
  onTestFinished(() => stop().then(() => undefined));
  return { stop };
}

const launches = (r: CliRig) => (r.worker.logText().match(/"msg":"CLI launched"/g) ?? []).length;
const gateRuns = (r: CliRig) => (r.worker.logText().match(/readiness gate: open/g) ?? []).length;

describe.skipIf(skipWithoutCli('claude'))('real Claude Code through the worker', () => {
  let rig: CliRig | null = null;
  afterEach(async () => {
    await rig?.cleanup();
    rig = null;
  });

  it('first and second message: one launch, one native id, no readiness polling before the second send', async () => {
    rig = await startCliRig({ name: 'claude', seed: true });
    const w = rig.worker;
    const screens = watchScreens(rig);
    w.input('t1', 'hello from larkmux');
    const identity = await w.waitFor((m) => m.type === 'cli_identity');
    expect(await w.waitFor((m) => m.type === 'input_delivered' && m.turnId === 't1')).toMatchObject({ evidence: expect.any(String) });
    expect((await w.waitFor(isFinal('t1'), 60_000)).text).toBe('FAKE-REPLY: hello from larkmux');
    const t1At = Date.now();
    expect(launches(rig)).toBe(1);

    const pid = await w.panePid();
    w.input('t2', 'second message');
    expect((await w.waitFor(isFinal('t2'), 60_000)).text).toBe('FAKE-REPLY: second message');
    expect(launches(rig)).toBe(1);
    // larkmux's tmux server has the options Claude asks for: its "tmux focus-events off · add 'set -g focus-events on'
    // …" line (measured without them: under the prompt right after the first answer, for about 8 s) never shows.
    await new Promise((r) => setTimeout(r, Math.max(0, t1At + HINT_WINDOW_MS - Date.now())));
    const hints = (await screens.stop()).flatMap((t) => t.split('\n')).filter((l) => l.includes('focus-events')).map((l) => l.trim());
    expect([...new Set(hints)]).toEqual([]);
    expect(gateRuns(rig)).toBe(1);
    expect(await w.panePid()).toBe(pid);
    const ids = new Set(w.of('cli_identity').map((m) => m.nativeSessionId));
    expect(ids).toEqual(new Set([identity.type === 'cli_identity' ? identity.nativeSessionId : '']));
    expect(w.of('input_failed')).toEqual([]);
  });

  it('a multi-line prompt and a 20 KB prompt each arrive as exactly one user turn', async () => {
    rig = await startCliRig({ name: 'claude', seed: true });
    const w = rig.worker;
    const multi = 'line one of the prompt\nline two\n\nline four after a blank';
    const big = Array.from({ length: 400 }, (_, i) => `chunk ${String(i).padStart(3, '0')} of a long prompt.`).join(' ').slice(0, 20_000);
    w.input('m', multi);
    await w.waitFor(isFinal('m'), 60_000);
    w.input('b', big);
    await w.waitFor(isFinal('b'), 60_000);
    const ident = w.of('cli_identity').find((m) => m.transcriptPath);
    const path = ident?.transcriptPath ?? '';
    expect(existsSync(path)).toBe(true);
    // Claude wraps pasted text in <pasted_content> tags; what matters is one user turn per message, text intact.
    const prompts = promptsIn(path);
    expect(prompts).toHaveLength(2);
    expect(prompts[0]!.includes(multi)).toBe(true);
    expect(prompts[1]!.includes(big)).toBe(true);
    expect(w.of('input_failed')).toEqual([]);
  });

  it('a tool permission prompt becomes a selection with the real options: Yes runs the tool, No does not', async () => {
    rig = await startCliRig({ name: 'claude', seed: true, homeFiles: ASKING });
    const w = rig.worker;
    w.input('y', 'MAKE-FILE yes.txt');
    // With manual permissions configured, Claude 2.1.332 first offers to switch to auto mode: a startup dialog with no
    // safe default, so it reaches a person as a selection, and the person's choice answers it.
    const offer = await w.waitFor((m): m is Sel => m.type === 'selection' && m.options.some((o) => /keep manual mode/.test(o.label)), 30_000);
    w.send({ type: 'selection_choice', promptId: offer.promptId, optionIndex: offer.options.findIndex((o) => /keep manual mode/.test(o.label)) });
    const sel = await w.waitFor(isSel('permission'), 30_000);
    const labels = sel.options.map((o) => o.label);
    expect(labels[0]).toMatch(/Yes/);
    expect(labels.some((l) => /No/.test(l))).toBe(true);
    expect(w.of('status').some((m) => m.status === 'waiting')).toBe(true);
    w.send({ type: 'selection_choice', promptId: sel.promptId, optionIndex: labels.findIndex((l) => /^1\. Yes$|^Yes$/.test(l)) });
    await w.waitFor(isFinal('y'), 60_000);
    expect(existsSync(join(rig.cwd, 'yes.txt'))).toBe(true);

    const from = w.messages.length;
    w.input('n', 'MAKE-FILE no.txt');
    const sel2 = await w.waitFor(isSel('permission'), 60_000, from);
    const noIndex = sel2.options.findIndex((o) => /^\d\. No\b|^No\b/.test(o.label));
    expect(noIndex).toBeGreaterThan(0);
    w.send({ type: 'selection_choice', promptId: sel2.promptId, optionIndex: noIndex });
    await w.waitFor((m) => m.type === 'status' && m.status === 'idle', 60_000, from + 1);
    expect(existsSync(join(rig.cwd, 'no.txt'))).toBe(false);
  });

  it('three messages sent while the model is slow arrive in order as three turns', async () => {
    rig = await startCliRig({ name: 'claude', seed: true, slowDelayMs: 4_000 });
    const w = rig.worker;
    w.input('s1', 'SLOW first');
    await w.waitFor((m) => m.type === 'input_delivered' && m.turnId === 's1', 60_000);
    w.input('s2', 'second');
    w.input('s3', 'third');
    const finals = [];
    for (const t of ['s1', 's2', 's3']) finals.push((await w.waitFor(isFinal(t), 90_000)).text);
    expect(finals).toEqual(['FAKE-REPLY: SLOW first', 'FAKE-REPLY: second', 'FAKE-REPLY: third']);
    const path = w.of('cli_identity').find((m) => m.transcriptPath)?.transcriptPath ?? '';
    expect(promptsIn(path)).toEqual(['SLOW first', 'second', 'third']);
  });

  it('a killed CLI is detected, reported as exited, and the next message resumes the conversation', async () => {
    rig = await startCliRig({ name: 'claude', seed: true });
    const w = rig.worker;
    w.input('k1', 'remember the word PELICAN');
    await w.waitFor(isFinal('k1'), 60_000);
    const id = w.of('cli_identity')[0]!.nativeSessionId;
    const pid = await w.panePid();
    process.kill(pid!, 'SIGKILL');
    await w.waitFor((m) => m.type === 'status' && m.status === 'exited', 30_000);
    expect(w.of('cli_exit')).toHaveLength(1);
    const requestsBefore = rig.fake.requests.length;
    w.input('k2', 'what was the word?');
    expect((await w.waitFor(isFinal('k2'), 60_000)).text).toBe('FAKE-REPLY: what was the word?');
    expect(launches(rig)).toBe(2);
    expect(w.logText()).toMatch(/"mode":"resume"[^\n]*launch prepared/);
    // Same native session, and the model saw the earlier conversation.
    expect(new Set(w.of('cli_identity').map((m) => m.nativeSessionId))).toEqual(new Set([id]));
    const later = rig.fake.requests.slice(requestsBefore).map((r) => JSON.stringify(r.body));
    expect(later.some((b) => b.includes('PELICAN') && b.includes('what was the word?'))).toBe(true);
  });

  it('an unseeded home: the onboarding dialogs are passed by the adapter\'s safe defaults, each logged with its reason', async () => {
    rig = await startCliRig({ name: 'claude', seed: false });
    const w = rig.worker;
    w.input('u1', 'hello after onboarding');
    expect((await w.waitFor(isFinal('u1'), 90_000)).text).toBe('FAKE-REPLY: hello after onboarding');
    const log = w.logText();
    expect(log).toContain('Yes, I trust this folder');
    expect(log).toMatch(/answered .* by default: /);
  });
});
