// Every slash command larkmux passes through to a CLI (CLI_SLASH_COMMANDS) is one the pinned CLI knows: each is typed
// into the real CLI (against the fake model server) and must not be answered "Unrecognized/Unknown command" (issue 31
// item 17: Codex's table listed /prompts, which Codex 0.171.0 rejects). One CLI start per adapter, all commands in it.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_SLASH_COMMANDS } from '../../src/daemon/commands/cli-commands.js';
import { adapterFor } from '../../src/worker/cli/registry.js';
import { applySeedFiles } from '../../src/worker/cli/seed.js';
import type { CliAdapter } from '../../src/worker/cli/types.js';
import { READINESS_TIMING } from '../../src/worker/lifecycle/readiness.js';
import { requireTestCli, skipWithoutCli, startCliPane, type CliPane, type TestCliName } from '../support/clis.js';
import { startFakeModelProcess, type IsolatedFakeServer } from '../support/fake-models/index.js';

const WAIT = {
  /** A CLI's first prompt (Gemini ~4.5 s on a quiet box) on a loaded machine. */
  readyMs: 90_000,
  pollMs: 250,
  /**
   * The three CLIs dispatch slash commands locally: a rejection is drawn within a few hundred ms (measured: Codex
   * ~0.2 s). Longer than that on a loaded box, short enough for ~40 commands in one test.
   */
  answerMs: 2_000,
  /** Gemini's answer to an unknown name is a model round trip (the fake answers in well under a second when idle). */
  modelAnswerMs: 5_000,
  /** A command that runs a model turn (/init, /compact) or opens a view ends within this, then the prompt is back. */
  backToPromptMs: 30_000,
} as const;

/** A name no CLI has: the control that proves the rejection is seen at all. */
const BOGUS = 'larkmux-no-such-command';
/**
 * Commands that end the CLI (Codex's /logout does too): checked last. Enter on /exit must end the CLI; the others must
 * be offered by the CLI's command completion (running them would end the one CLI start).
 */
const EXITS = new Set(['exit', 'quit', 'logout']);

const ADAPTER_ID = { claude: 'claude-code', codex: 'codex', gemini: 'gemini' } as const;
/**
 * How each pinned CLI answers a name it does not know: Codex 0.171.0 and Claude Code 2.1.332 say so; Gemini 0.61.0
 * sends the text to the model as a prompt (the fake answers `FAKE-REPLY: /name`, and its request log holds the text).
 */
const REJECTION: Record<TestCliName, (name: string) => RegExp> = {
  codex: (n) => new RegExp(`Unrecognized command '/${n}'`),
  gemini: (n) => new RegExp(`Unknown command: /${n}\\b|FAKE-REPLY: /${n}(?:\\s|$)`, 'm'),
  claude: (n) => new RegExp(`Unknown (?:skill|command|slash command): /?${n}\\b`),
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Rig {
  pane: CliPane;
  adapter: CliAdapter;
  fake: IsolatedFakeServer;
  root: string;
}

async function startCli(name: TestCliName): Promise<Rig> {
  const r = adapterFor(ADAPTER_ID[name]);
  if (!r.ok) throw new Error(r.message);
  const adapter = r.adapter;
  const root = mkdtempSync(join(tmpdir(), `lmx-slash-${name}-`));
  const [home, cwd, codexHome] = ['home', 'work', 'codex'].map((d) => join(root, d)) as [string, string, string];
  for (const d of [home, cwd, codexHome]) mkdirSync(d);
  const fake = await startFakeModelProcess(name === 'claude' ? 'anthropic' : name === 'codex' ? 'openai' : 'gemini', { isolate: true });
  const env: Record<string, string> = {
    HOME: home, LANG: 'C.UTF-8',
    ...(name === 'claude' ? { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_AUTH_TOKEN: 'sk-fake', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' } : {}),
    ...(name === 'codex' ? { CODEX_HOME: codexHome, FAKE_OPENAI_API_KEY: 'sk-fake' } : {}),
    ...(name === 'gemini' ? { GOOGLE_GEMINI_BASE_URL: fake.url, GEMINI_API_KEY: 'fake-key' } : {}),
  };
  const seeded = await applySeedFiles(adapter.seedFiles({ cwd, home, codexHome, baseUrl: fake.url, env }));
  if (!seeded.ok) throw new Error(seeded.message);
  // The adapter's own argv and environment (Codex's --no-daemon, Gemini's no-relaunch), with the pinned binary.
  const spec = adapter.launch({ cwd, home, mode: 'new', botEnv: env, command: requireTestCli(name) });
  const pane = await startCliPane({ argv: spec.argv, cwd, env: { ...env, ...spec.env }, netnsPid: fake.netnsPid });
  return { pane, adapter, fake, root };
}

const keys = (rig: Rig, ...k: string[]) => rig.pane.tmux(['send-keys', '-t', rig.pane.target, ...k]);
const kind = async (rig: Rig) => rig.adapter.classify(await rig.pane.capture()).kind;

/** The prompt is showing and has held (as the readiness gate requires: a CLI still starting may take a line as a prompt). */
async function promptHeld(rig: Rig, withinMs: number, holdMs: number = READINESS_TIMING.readySettleMs): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  let since: number | null = null;
  while (Date.now() < deadline) {
    if ((await kind(rig)) === 'ready') {
      since ??= Date.now();
      if (Date.now() - since >= holdMs) return true;
    } else since = null;
    await sleep(WAIT.pollMs);
  }
  return false;
}

/** Back to an empty prompt after a command: close what it opened (Esc, a pager's q), wait out a model turn, clear the box. */
async function backToPrompt(rig: Rig, after: string): Promise<void> {
  for (let i = 0; i < 3 && (await kind(rig)) !== 'ready' && (await kind(rig)) !== 'busy'; i++) {
    await keys(rig, 'Escape');
    await sleep(500);
  }
  if ((await kind(rig)) === 'unknown') await keys(rig, 'q');
  if (!(await promptHeld(rig, WAIT.backToPromptMs, WAIT.pollMs * 2))) throw new Error(`no prompt after /${after}:\n${await rig.pane.capture()}`);
  if ((rig.adapter.composerText(await rig.pane.capture()) ?? '') !== '') await keys(rig, 'End', 'C-u');
  if ((rig.adapter.composerText(await rig.pane.capture()) ?? '') !== '') await keys(rig, ...Array<string>(60).fill('BSpace'));
}

/** Types `/name` and Enter; true when the CLI answered that it does not know it. */
async function rejected(rig: Rig, name: string, cli: TestCliName, withinMs?: number): Promise<boolean> {
  const requestsBefore = rig.fake.requests.length;
  await keys(rig, '-l', `/${name}`);
  await sleep(300);
  await keys(rig, 'Enter');
  const deadline = Date.now() + (withinMs ?? (cli === 'gemini' ? WAIT.modelAnswerMs : WAIT.answerMs));
  while (Date.now() < deadline) {
    if (REJECTION[cli](name).test(await rig.pane.capture())) return true;
    // The bare text reached the model: the CLI took it for a prompt, not a command.
    if (rig.fake.requests.slice(requestsBefore).some((r) => JSON.stringify(r.body).includes(`"/${name}"`))) return true;
    await sleep(WAIT.pollMs);
  }
  return false;
}

/** The command completion offers `/name` (an entry: the name, then its description), without running it. */
async function offered(rig: Rig, name: string): Promise<boolean> {
  await keys(rig, '-l', `/${name}`);
  await sleep(800);
  const screen = await rig.pane.capture();
  await keys(rig, 'End', 'C-u');
  await sleep(300);
  if ((rig.adapter.composerText(await rig.pane.capture()) ?? '') !== '') await keys(rig, ...Array<string>(name.length + 1).fill('BSpace'));
  return new RegExp(`(?:^|\\s)/?${name}\\s{2,}\\S`, 'm').test(screen);
}

describe.each(['codex', 'gemini', 'claude'] as const)('slash commands listed for %s', (name) => {
  let rig: Rig | null = null;
  afterEach(async () => {
    await rig?.pane.kill();
    await rig?.fake.close();
    if (rig) rmSync(rig.root, { recursive: true, force: true });
    rig = null;
  });

  it.skipIf(skipWithoutCli(name))('the pinned CLI knows every one (and rejects a made-up name)', async () => {
    rig = await startCli(name);
    expect(await promptHeld(rig, WAIT.readyMs)).toBe(true);
    const listed = CLI_SLASH_COMMANDS[ADAPTER_ID[name]];
    const unknown: string[] = [];
    // The control first: a made-up name must be seen rejected, or this test could not fail. It may wait for the CLI to
    // finish starting (Gemini queues a line typed while it still loads, and sends it when done).
    expect(await rejected(rig, BOGUS, name, WAIT.backToPromptMs)).toBe(true);
    await backToPrompt(rig, BOGUS);
    // `vim` switches the input box's key handling: last before the exits.
    const ordered = [...listed.filter((c) => !EXITS.has(c) && c !== 'vim'), ...listed.filter((c) => c === 'vim')];
    for (const command of ordered) {
      if (await rejected(rig, command, name)) unknown.push(command);
      await backToPrompt(rig, command);
    }
    const exits = [...listed.filter((c) => EXITS.has(c) && c !== 'exit'), ...listed.filter((c) => c === 'exit')];
    for (const command of exits.slice(0, -1)) if (!(await offered(rig, command))) unknown.push(command);
    const last = exits.at(-1);
    if (last) {
      await keys(rig, '-l', `/${last}`);
      await sleep(300);
      await keys(rig, 'Enter');
      const deadline = Date.now() + WAIT.backToPromptMs;
      while (Date.now() < deadline && (await kind(rig)) !== 'exited') await sleep(WAIT.pollMs);
      if ((await kind(rig)) !== 'exited') unknown.push(last);
    }
    expect(unknown).toEqual([]);
  });
});
