import { describe, expect, it } from 'vitest';
import { parseConfig, parseConfigText } from '../../src/shared/config.js';

const SECRET = 'sEcReT-value-that-must-never-be-printed-42';
const bot = { name: 'claude', appId: 'cli_a1b2c3d4e5f60718', appSecret: SECRET };

function errorsOf(raw: unknown, env: NodeJS.ProcessEnv = {}): string[] {
  const res = parseConfig(raw, env);
  expect(res.ok).toBe(false);
  return res.ok ? [] : res.errors;
}

describe('config', () => {
  it('fills defaults for an empty file and for a minimal bot', () => {
    const empty = parseConfig({});
    // web.host: this machine only unless the config says otherwise (issue 13 finding 5, DESIGN §11).
    expect(empty.ok && empty.config).toEqual({ web: { port: 7680, host: '127.0.0.1', allowedHosts: [] }, tmux: { socket: null }, bots: [], hosts: [] });
    const res = parseConfig({ bots: [bot] });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.config.bots[0]).toMatchObject({ domain: 'feishu', events: 'websocket', cli: 'claude-code', maxLiveWorkers: 30, maxLiveClis: 20, allowedUsers: [] });
    expect(res.secrets).toContain(SECRET);
  });

  it('reads ${NAME} values from the environment', () => {
    const res = parseConfig({ bots: [{ ...bot, appSecret: '${LARK_APP_SECRET}' }] }, { LARK_APP_SECRET: SECRET });
    expect(res.ok && res.config.bots[0]?.appSecret).toBe(SECRET);
  });

  it('accepts a custom CLI and a base URL domain', () => {
    const res = parseConfig({ bots: [{ ...bot, domain: 'http://127.0.0.1:18080', cli: { command: 'htop', readyPattern: 'F1Help' } }] });
    expect(res.ok).toBe(true);
  });

  const cases: [string, unknown, NodeJS.ProcessEnv, RegExp][] = [
    ['missing env var', { bots: [{ ...bot, appSecret: '${NOPE_SECRET}' }] }, {}, /bots\[0\]\.appSecret: environment variable NOPE_SECRET is not set; export it/],
    ['bad app id', { bots: [{ ...bot, appId: 'app_123' }] }, {}, /bots\[0\]\.appId: "app_123": must look like cli_ followed by 16 hex digits/],
    ['unknown top-level field', { bots: [], webb: {} }, {}, /config: unknown field "webb" \(did you mean "web"\?\); remove it or check the spelling \(allowed in the top level: console, web, tmux, bots, hosts\)/],
    ['unknown bot field', { bots: [{ ...bot, secret: SECRET }] }, {}, /bots\[0\]: unknown field "secret"; remove it/],
    ['wrong type', { web: { port: 'eighty' } }, {}, /web\.port: expected a number, got "eighty"/],
    ['bad enum', { bots: [{ ...bot, events: 'poll' }] }, {}, /bots\[0\]\.events: "poll" is not allowed; use one of "websocket", "webhook"/],
    ['unknown cli', { bots: [{ ...bot, cli: 'vim' }] }, {}, /bots\[0\]\.cli/],
    ['duplicate names', { bots: [bot, { ...bot, appId: 'cli_0000000000000000' }] }, {}, /bots\[1\]\.name: "claude" is used by another bot/],
    ['bad tmux socket', { tmux: { socket: '../x' } }, {}, /tmux\.socket: "\.\.\/x": a tmux -L socket name/],
    ['secret of the wrong type', { bots: [{ ...bot, appSecret: 12345 }] }, {}, /bots\[0\]\.appSecret: expected a string, got \(hidden\)/],
  ];

  it.each(cases)('%s: names the field and the fix', (_name, raw, env, expected) => {
    const errors = errorsOf(raw, env);
    expect(errors.join('\n')).toMatch(expected);
  });

  it('never prints a secret value in any error', () => {
    const attempts: unknown[] = [
      { bots: [{ ...bot, appId: SECRET }] },
      { bots: [{ ...bot, appSecret: SECRET, encryptKey: 42 }] },
      { bots: [{ ...bot, domain: SECRET }] },
      { bots: [{ ...bot, cli: SECRET }] },
      { bots: [{ ...bot, name: SECRET + '!!' }] },
      { bots: [{ ...bot, [SECRET]: 1 }].map(({ [SECRET]: _x, ...b }) => ({ ...b, extra: SECRET })) },
      { bots: [{ ...bot, verificationToken: { nested: SECRET } }] },
    ];
    for (const raw of attempts) {
      const res = parseConfig(raw, {});
      expect(res.ok).toBe(false);
      if (!res.ok) expect(res.errors.join('\n')).not.toContain(SECRET.slice(0, 12));
    }
    const text = `{ "bots": [ { "name": "x", "appId": "cli_a1b2c3d4e5f60718", "appSecret": ${SECRET} } ] }`;
    const bad = parseConfigText(text);
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.errors[0]).toMatch(/config\.json is not valid JSON/);
      expect(bad.errors.join('\n')).not.toContain(SECRET.slice(0, 12));
    }
  });
});
