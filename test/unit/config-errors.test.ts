// Issue 32 item 1: every config error names the field, the value given and what is allowed, with a "did you mean"
// for a close misspelling; every error is reported at once; a secret is never the value shown.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkConfigText } from '../../src/platform/config-file.js';
import { closestWord, editDistance } from '../../src/shared/closest-word.js';
import { parseConfig } from '../../src/shared/config.js';
import { shownValue } from '../../src/shared/config-value.js';

const SECRET = 'sEcReT-value-that-must-never-be-printed-42';
const bot = { name: 'b', appId: 'cli_a1b2c3d4e5f60718', appSecret: SECRET };
const CLI_ALLOWED = 'use one of "claude-code", "codex", "gemini", "shell", or a custom { "command": …, "readyPattern": … } object';

function errorsOf(raw: unknown): string[] {
  const res = parseConfig(raw, {});
  expect(res.ok).toBe(false);
  return res.ok ? [] : res.errors;
}

describe('the console section names the field, the value and what is allowed', () => {
  it.each<[string, unknown, string[]]>([
    ['"console": "yes"', { console: 'yes' }, ['console: "yes" is not allowed; use true (the console with its defaults), false (off), or an object of console settings such as { "cli": "shell", "workingDir": "~/code" }']],
    ['"console": 1', { console: 1 }, ['console: 1 is not allowed; use true (the console with its defaults), false (off), or an object of console settings such as { "cli": "shell", "workingDir": "~/code" }']],
    ['wrong locale', { console: { locale: 'fr' } }, ['console.locale: "fr" is not allowed; use one of "zh-CN", "en"']],
    ['locale in the wrong case', { console: { locale: 'zh-cn' } }, ['console.locale: "zh-cn" is not allowed (did you mean "zh-CN"?); use one of "zh-CN", "en"']],
    ['unknown cli', { console: { cli: 'vim' } }, [`console.cli: unknown CLI "vim"; ${CLI_ALLOWED}`]],
    ['short cli name', { console: { cli: 'claude' } }, [`console.cli: unknown CLI "claude" (did you mean "claude-code"?); ${CLI_ALLOWED}`]],
    ['custom cli without readyPattern', { console: { cli: { command: 'htop' } } }, ['console.cli.readyPattern: missing; add it: a regex that matches the screen when the program waits for input (see docs/configuration.md)']],
    ['projects not a list', { console: { projects: '~/a' } }, ['console.projects: expected a list, got "~/a"; fix the value\'s type (see docs/configuration.md)']],
    ['workingDir a number', { console: { workingDir: 5 } }, ['console.workingDir: expected a string, got 5; fix the value\'s type (see docs/configuration.md)']],
    ['type of allowRemote', { console: { allowRemote: 'yes' } }, ['console.allowRemote: expected a boolean, got "yes"; fix the value\'s type (see docs/configuration.md)']],
    ['misspelt key', { console: { clii: 'shell' } }, ['console: unknown field "clii" (did you mean "cli"?); remove it or check the spelling (allowed in console: cli, workingDir, projects, locale, env, allowRemote)']],
  ])('%s', (_name, raw, want) => {
    expect(errorsOf(raw)).toEqual(want);
  });
});

describe('every section: value given and what is allowed', () => {
  it.each<[string, unknown, string[]]>([
    ['misspelt web key', { web: { prot: 8080 } }, ['web: unknown field "prot" (did you mean "port"?); remove it or check the spelling (allowed in web: port, host, publicUrl, allowedHosts)']],
    ['unknown key with nothing close', { web: { colour: 'red' } }, ['web: unknown field "colour"; remove it or check the spelling (allowed in web: port, host, publicUrl, allowedHosts)']],
    ['port out of range', { web: { port: 70000 } }, ['web.port: 70000 is too large; use a whole number from 0 to 65535']],
    ['cap below its minimum', { bots: [{ ...bot, maxLiveClis: 0 }] }, ['bots[0].maxLiveClis: 0 is too small; use a whole number from 1 to 1000']],
    ['enum with a near miss', { bots: [{ ...bot, events: 'websockets' }] }, ['bots[0].events: "websockets" is not allowed (did you mean "websocket"?); use one of "websocket", "webhook"']],
    ['bad domain', { bots: [{ ...bot, domain: 'open.feishu' }] }, ['bots[0].domain: "open.feishu" is not allowed; use "feishu", "lark", or the http(s) base URL of a private deployment, e.g. "https://open.example.com"']],
    ['empty name once', { bots: [{ ...bot, name: '' }] }, ['bots[0].name: "" is empty; write a value']],
    ['nested boolean', { bots: [{ ...bot, attention: { pin: 'yes' } }] }, ['bots[0].attention.pin: expected a boolean, got "yes"; fix the value\'s type (see docs/configuration.md)']],
    ['bots not a list', { bots: { name: 'b' } }, ['bots: expected a list, got an object; fix the value\'s type (see docs/configuration.md)']],
  ])('%s', (_name, raw, want) => {
    expect(errorsOf(raw)).toEqual(want);
  });
});

describe('secrets are never the value shown', () => {
  it.each<[string, unknown, string]>([
    ['appSecret of the wrong type', { bots: [{ ...bot, appSecret: 12345 }] }, 'bots[0].appSecret: expected a string, got (hidden)'],
    ['an env entry of the wrong type', { bots: [{ ...bot, env: { API_KEY: 42 } }] }, 'bots[0].env.API_KEY: expected a string, got (hidden)'],
    ['a secret pasted into appId', { bots: [{ ...bot, appId: SECRET }] }, 'bots[0].appId: (hidden: looks like a secret): must look like cli_'],
    ['a secret pasted into cli', { bots: [{ ...bot, cli: SECRET }] }, 'bots[0].cli: unknown CLI (hidden: looks like a secret);'],
    ['a ${NAME} shows as the reference, not its value', { bots: [{ ...bot, locale: '${LOC}' }] }, 'bots[0].locale: "${LOC}" is not allowed'],
  ])('%s', (_name, raw, want) => {
    const res = parseConfig(raw, { LOC: SECRET });
    expect(res.ok).toBe(false);
    const text = res.ok ? '' : res.errors.join('\n');
    expect(text).toContain(want);
    expect(text).not.toContain(SECRET.slice(0, 12));
  });

  it.each<[unknown, string]>([
    ['fr', '"fr"'],
    [0, '0'],
    [null, 'null'],
    [['a'], 'a list'],
    [{ a: 1 }, 'an object'],
    ['~/code/project-2024-with-a-long-name', '"~/code/project-2024-with-a-long-name"'],
    ['x'.repeat(50), `"${'x'.repeat(40)}…"`],
    ['AbCdEf0123456789AbCdEf0123456789', '(hidden: looks like a secret)'],
  ])('shownValue(%j) → %s', (value, want) => {
    expect(shownValue(['workingDir'], value)).toBe(want);
  });
});

describe('did you mean', () => {
  it.each<[string, string, number]>([
    ['prot', 'port', 1],
    ['clii', 'cli', 1],
    ['kitten', 'sitting', 3],
    ['', 'abc', 3],
  ])('editDistance(%s, %s) = %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
  });

  it.each<[string, string[], string | null]>([
    ['prot', ['port', 'host', 'publicUrl'], 'port'],
    ['workingdir', ['workingDir', 'projects'], 'workingDir'],
    ['cli', ['env', 'locale'], null],
    ['colour', ['port', 'host', 'publicUrl'], null],
    ['claude', ['claude-code', 'codex'], 'claude-code'],
    ['maxLiveCli', ['maxLiveClis', 'maxLiveWorkers'], 'maxLiveClis'],
  ])('closestWord(%s) → %s', (word, candidates, want) => {
    expect(closestWord(word, candidates)).toBe(want);
  });
});

describe('every error at once (doctor and start read the file through checkConfigText)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lmx-cfgall-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('an unknown cli, a missing bot workingDir, a missing console workingDir and a bad env reference, all listed', () => {
    const text = JSON.stringify({
      console: { workingDir: join(dir, 'console-gone'), locale: 'fr' },
      bots: [{ ...bot, appSecret: '${NOT_SET_ANYWHERE}', cli: 'vim', workingDir: join(dir, 'bot-gone') }],
    });
    const res = checkConfigText(text, {});
    expect(res.ok).toBe(false);
    expect(res.ok ? [] : res.errors).toEqual([
      'bots[0].appSecret: environment variable NOT_SET_ANYWHERE is not set; export it before starting larkmux or write the value in the file',
      'console.locale: "fr" is not allowed; use one of "zh-CN", "en"',
      `bots[0].cli: unknown CLI "vim"; ${CLI_ALLOWED}`,
      `bots[0].workingDir: the folder ${join(dir, 'bot-gone')} does not exist; create it (mkdir -p ${join(dir, 'bot-gone')}) or fix the path`,
      `console.workingDir: the folder ${join(dir, 'console-gone')} does not exist; create it (mkdir -p ${join(dir, 'console-gone')}) or fix the path`,
    ]);
  });

  it('duplicate bots and bad regexes are reported beside shape errors', () => {
    const res = checkConfigText(JSON.stringify({ web: { port: 'x' }, bots: [{ ...bot, cli: { command: 'h', readyPattern: '(' } }, { ...bot, appId: 'cli_0000000000000000' }] }), {});
    const errors = res.ok ? [] : res.errors;
    expect(errors[0]).toBe('web.port: expected a number, got "x"; fix the value\'s type (see docs/configuration.md)');
    expect(errors).toContain('bots[1].name: "b" is used by another bot; give each bot its own name');
    expect(errors.some((e) => e.startsWith('bots[0].cli.readyPattern: not a valid regular expression'))).toBe(true);
  });
});

describe("a bot's default host must be a configured one", () => {
  const hosts = [{ name: 'gpu1', ssh: 'me@gpu1.example' }];
  it.each<[string, unknown, string[] | null]>([
    ['a configured host', { hosts, bots: [{ ...bot, host: 'gpu1' }] }, null],
    ['local, always there', { bots: [{ ...bot, host: 'local' }] }, null],
    ['an unknown host', { hosts, bots: [{ ...bot, host: 'gpu2' }] }, ['bots[0].host: "gpu2" is not a configured host; known hosts: local, gpu1 (add it under "hosts", or remove the bot\'s "host")']],
  ])('%s', (_what, raw, errors) => {
    const res = parseConfig(raw, {});
    expect(res.ok ? null : res.errors).toEqual(errors);
  });
});
