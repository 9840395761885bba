// The host agent answers git questions on its channel (git_ask → git_answer): the agent class in this process, its
// "link" a pair of streams, git the real one behind a wrapper on PATH that holds a run in one folder until the test
// lets it go. An ask held up by a slow git does not hold up the frame loop or another ask; a question the channel does
// not carry (a diff, a relative folder) is answered by its id with an error, never left unanswered.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HostAgent } from '../../src/worker/host/host-agent.js';
import { encodeFrame, FrameDecoder } from '../../src/shared/frame-codec.js';
import { parseAgentToDaemon, type AgentToDaemon, type DaemonToAgent } from '../../src/shared/host-agent-protocol.js';
import { until } from '../support/until.js';

let dir: string;
let oldPath: string | undefined;
let realGit: string;

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-agit-')));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  // A git run about the folder `held` notes it started, then waits for the release file.
  writeFileSync(join(bin, 'git'), `#!/bin/sh\ncase "$*" in *"${dir}/held"*) : > '${dir}/held-started'; while [ ! -f '${dir}/release' ]; do sleep 0.05; done;; esac\nexec '${realGit}' "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  oldPath = process.env.PATH;
  process.env.PATH = `${bin}:${oldPath}`;
});

afterAll(() => {
  process.env.PATH = oldPath;
  if (dir) writeFileSync(join(dir, 'release'), ''); // a held git of a failed run ends
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function repo(name: string): string {
  const d = join(dir, name);
  mkdirSync(d);
  execFileSync(realGit, ['-C', d, 'init', '-q']);
  writeFileSync(join(d, 'a.txt'), 'one\n');
  return d;
}

it('answers several asks at once, each by its id, a slow one not holding up the others; refuses what the channel does not carry', { timeout: 60_000 }, async () => {
  const held = repo('held');
  const quick = repo('quick 笔记 $(touch pwned)');
  const input = new PassThrough();
  const output = new PassThrough();
  const agent = new HostAgent({
    input, output, workerEntry: join(dir, 'none.js'), sha: 'a'.repeat(64), env: { PATH: process.env.PATH }, log: () => undefined,
    memAvailable: () => null, onDone: () => undefined,
  });
  agent.run();
  const decoder = new FrameDecoder();
  const answers = new Map<number, Extract<AgentToDaemon, { kind: 'git_answer' }>['result']>();
  const dropped: string[] = [];
  output.on('data', (chunk: Buffer) => {
    for (const ev of decoder.push(chunk)) {
      if (ev.kind !== 'frame') continue;
      const parsed = parseAgentToDaemon(ev.value);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) continue;
      if (parsed.frame.kind === 'git_answer') answers.set(parsed.frame.id, parsed.frame.result);
      if (parsed.frame.kind === 'dropped') dropped.push(parsed.frame.reason);
    }
  });
  const send = (frame: DaemonToAgent | Record<string, unknown>) => input.write(encodeFrame(frame));

  send({ kind: 'git_ask', id: 1, request: { op: 'snapshot', cwd: held } });
  await until('the held git to start', () => existsSync(join(dir, 'held-started')));
  send({ kind: 'git_ask', id: 2, request: { op: 'snapshot', cwd: quick } });
  send({ kind: 'git_ask', id: 3, request: { op: 'root', cwd: dir } });
  send({ kind: 'git_ask', id: 4, request: { op: 'diff', top: quick, from: 'a'.repeat(40), to: 'b'.repeat(40) } });
  send({ kind: 'git_ask', id: 5, request: { op: 'root', cwd: 'relative/folder' } });
  send({ kind: 'git_ask', id: 0, request: { op: 'root', cwd: quick } });
  await until('the asks after the held one answered', () => [2, 3, 4, 5].every((id) => answers.has(id)) && dropped.length > 0, 15_000).catch(() => undefined);
  expect({ ids: [...answers.keys()].sort(), dropped }).toEqual({ ids: [2, 3, 4, 5], dropped: [expect.stringMatching(/^invalid frame: id/)] });
  expect(answers.get(2)).toEqual({ ok: true, snapshot: { top: quick, tree: expect.stringMatching(/^[0-9a-f]{40}$/) } });
  expect(answers.get(3)).toEqual({ ok: true, top: null });
  expect(answers.get(4)).toMatchObject({ ok: false, error: expect.stringMatching(/^refused: request\.op/) });
  expect(answers.get(5)).toMatchObject({ ok: false, error: expect.stringMatching(/^refused: request\.cwd/) });
  // An id that is not one cannot be answered by it: said back as a dropped frame.
  expect(dropped).toEqual([expect.stringMatching(/^invalid frame: id/)]);
  expect(existsSync(join(quick, 'pwned'))).toBe(false);

  writeFileSync(join(dir, 'release'), '');
  await until('the held ask answered', () => answers.get(1));
  expect(answers.get(1)).toEqual({ ok: true, snapshot: { top: held, tree: expect.stringMatching(/^[0-9a-f]{40}$/) } });
  input.end();
});
