// Table-driven tests of message classification: prompt vs daemon command vs CLI-owned slash command.
import { describe, expect, it } from 'vitest';
import { classifyText, CLI_COMMAND_MAX, type Classified } from '../../src/daemon/commands/classify.js';
import { cliCommandSet, stopKeyFor } from '../../src/daemon/commands/cli-commands.js';
import { COMMAND_TABLE, CHAT_COMMANDS, buildCommandTable } from '../../src/daemon/commands/index.js';

const claude = { daemon: COMMAND_TABLE.names, cli: cliCommandSet('claude-code') };
const codex = { daemon: COMMAND_TABLE.names, cli: cliCommandSet('codex') };
const gemini = { daemon: COMMAND_TABLE.names, cli: cliCommandSet('gemini') };
const custom = { daemon: COMMAND_TABLE.names, cli: cliCommandSet({ command: 'tui', args: [], readyPattern: '>' }) };

const rows: { text: string; sets: typeof claude; want: Classified }[] = [
  { text: 'fix the bug', sets: claude, want: { kind: 'prompt', text: 'fix the bug' } },
  { text: '  /cd ~/code/a  ', sets: claude, want: { kind: 'daemon', name: 'cd', args: '~/code/a' } },
  { text: '/display text', sets: claude, want: { kind: 'daemon', name: 'display', args: 'text' } },
  { text: '/HELP', sets: claude, want: { kind: 'daemon', name: 'help', args: '' } },
  { text: '/model opus', sets: claude, want: { kind: 'cli', name: 'model', text: '/model opus' } },
  { text: '/compact', sets: codex, want: { kind: 'cli', name: 'compact', text: '/compact' } },
  { text: '/mention', sets: codex, want: { kind: 'cli', name: 'mention', text: '/mention' } },
  { text: '/mention', sets: claude, want: { kind: 'prompt', text: '/mention' } },
  // Codex 0.171.0 rejects /prompts ("Unrecognized command"): it is typed as a prompt, not passed as Codex's command.
  { text: '/prompts', sets: codex, want: { kind: 'prompt', text: '/prompts' } },
  { text: '/tools', sets: gemini, want: { kind: 'cli', name: 'tools', text: '/tools' } },
  // The CLI wins over a daemon command of the same name …
  { text: '/status', sets: claude, want: { kind: 'cli', name: 'status', text: '/status' } },
  // … where the CLI has none, the daemon's is used …
  { text: '/status', sets: gemini, want: { kind: 'daemon', name: 'status', args: '' } },
  // … and /lmx always reaches the daemon.
  { text: '/lmx status', sets: claude, want: { kind: 'daemon', name: 'status', args: '' } },
  { text: '/lmx cd /tmp', sets: claude, want: { kind: 'daemon', name: 'cd', args: '/tmp' } },
  { text: '/lmx', sets: claude, want: { kind: 'daemon', name: 'help', args: '' } },
  { text: '//model', sets: claude, want: { kind: 'prompt', text: '/model' } },
  { text: '//cd here', sets: claude, want: { kind: 'prompt', text: '/cd here' } },
  { text: '/tmp/build.log is empty, why?', sets: claude, want: { kind: 'prompt', text: '/tmp/build.log is empty, why?' } },
  { text: '/unknownthing', sets: claude, want: { kind: 'prompt', text: '/unknownthing' } },
  { text: '/reload', sets: custom, want: { kind: 'prompt', text: '/reload' } },
  { text: '/model x', sets: custom, want: { kind: 'prompt', text: '/model x' } },
  { text: '/model\nsecond line', sets: claude, want: { kind: 'prompt', text: '/model\nsecond line' } },
  { text: `/model ${'x'.repeat(CLI_COMMAND_MAX)}`, sets: claude, want: { kind: 'prompt', text: `/model ${'x'.repeat(CLI_COMMAND_MAX)}` } },
];

describe('classifyText', () => {
  it.each(rows)('$text', ({ text, sets, want }) => {
    expect(classifyText(text, sets)).toEqual(want);
  });
});

describe('command table', () => {
  it('holds every daemon command of DESIGN §9 and /revoke-term /sessions', () => {
    for (const n of ['help', 'status', 'close', 'stop', 'cd', 'repo', 'term', 'display', 'screen', 'grant', 'revoke', 'revoke-term', 'sessions']) {
      expect(COMMAND_TABLE.byName.get(n)?.name).toBe(n);
    }
  });
  it('refuses a name used twice', () => {
    expect(() => buildCommandTable([...CHAT_COMMANDS, CHAT_COMMANDS[1]!])).toThrow(/used twice/);
  });
  it.each([
    { cli: 'claude-code' as const, key: 'esc' },
    { cli: 'codex' as const, key: 'esc' },
    { cli: 'shell' as const, key: 'ctrl_c' },
  ])('/stop presses $key for $cli', ({ cli, key }) => {
    expect(stopKeyFor(cli)).toBe(key);
  });
});
