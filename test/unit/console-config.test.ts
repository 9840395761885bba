// The console's decisions as pure functions: default CLI, offered CLIs, when it runs, the printed URL.
import { describe, expect, it } from 'vitest';
import { consoleLoginUrl, consoleBotConfig, consoleProjects } from '../../src/daemon/im/local/index.js';
import { consoleSettings, parseConfig } from '../../src/shared/config.js';
import { consoleCliChoices, defaultConsoleCli } from '../../src/shared/console-cli.js';

const onPath = (...programs: string[]) => (p: string) => programs.includes(p);

describe('default console CLI', () => {
  it.each([
    [['claude', 'codex', 'gemini'], 'claude-code'],
    [['codex', 'gemini'], 'codex'],
    [['gemini'], 'gemini'],
    [['gemini', 'claude'], 'claude-code'],
    [[], 'shell'],
    [['bash', 'node'], 'shell'],
  ] as const)('on PATH %j → %s', (programs, want) => {
    expect(defaultConsoleCli(onPath(...programs))).toBe(want);
  });

  it('config wins over detection', () => {
    expect(consoleBotConfig({ cli: 'shell', workingDir: '/tmp', projects: [] }, onPath('claude')).cli).toBe('shell');
    expect(consoleBotConfig({ workingDir: '/tmp', projects: [] }, onPath('claude')).cli).toBe('claude-code');
    // Beside bots (`"console": true`), the first bot's CLI is the default unless the console names its own.
    expect(consoleBotConfig({ workingDir: '/tmp', projects: [] }, onPath('claude'), [{ cli: 'gemini' }]).cli).toBe('gemini');
    expect(consoleBotConfig({ cli: 'codex', workingDir: '/tmp', projects: [] }, onPath(), [{ cli: 'gemini' }]).cli).toBe('codex');
  });
});

describe('offered CLIs', () => {
  it('the default first, then configured bots, then what is on PATH, then the shell; no duplicates', () => {
    const custom = { command: 'aider', args: [], readyPattern: '> $' };
    const choices = consoleCliChoices('codex', [{ cli: 'claude-code' }, { cli: custom }, { cli: 'codex' }], onPath('gemini', 'codex'));
    expect(choices.map((c) => c.label)).toEqual(['codex', 'claude-code', 'aider', 'gemini', 'shell']);
    expect(new Set(choices.map((c) => c.id)).size).toBe(choices.length);
    expect(choices[2]!.spec).toEqual(custom);
  });
});

describe('when the console runs', () => {
  const bot = { name: 'b', appId: 'cli_a1b2c3d4e5f60718', appSecret: 'sekrit' };
  it.each([
    [{}, true],
    [{ bots: [bot] }, false],
    [{ bots: [bot], console: true }, true],
    [{ bots: [bot], console: { cli: 'shell' } }, true],
    [{ console: false }, false],
    [{ console: { workingDir: '/srv' } }, true],
  ])('%j → %s', (raw, on) => {
    const res = parseConfig(raw, {});
    expect(res.ok).toBe(true);
    if (res.ok) expect(consoleSettings(res.config) !== null).toBe(on);
  });

  it('rejects unknown console fields with a message naming them', () => {
    const res = parseConfig({ console: { clii: 'shell' } }, {});
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.errors.join('\n')).toMatch(/console.*clii/);
  });
});

describe('console bot and URL', () => {
  it('is a bot with the pseudo app id whose only user is the console user (owner without pairing)', () => {
    const bot = consoleBotConfig({ workingDir: '/w', projects: ['/p/a', '/w'] }, onPath());
    expect(bot.appId).toBe('console');
    expect(bot.allowedUsers).toEqual(['console-user']);
    expect(bot.maxLiveClis).toBeGreaterThan(0);
    expect(consoleProjects(bot)).toEqual([{ label: 'w', path: '/w' }, { label: 'a', path: '/p/a' }]);
  });

  it.each([
    [{ host: '0.0.0.0', port: 7680 }, 'http://127.0.0.1:7680/console/?token=T'],
    [{ host: '127.0.0.1', port: 7680 }, 'http://127.0.0.1:7680/console/?token=T'],
    [{ host: '10.0.0.5', port: 7680 }, 'http://10.0.0.5:7680/console/?token=T'],
    [{ host: '0.0.0.0', port: 7680, publicUrl: 'https://box.example.com/' }, 'https://box.example.com/console/?token=T'],
  ])('%j → %s', (web, want) => {
    expect(consoleLoginUrl(web, 7680, 'T')).toBe(want);
  });
});
