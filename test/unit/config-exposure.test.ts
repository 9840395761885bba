// Issue 31 item 10: a config.json that holds written-out secrets must be readable by its owner alone.
import { describe, expect, it } from 'vitest';
import { configExposure, literalSecretFields } from '../../src/shared/config-exposure.js';

const bot = { name: 'b', appId: 'cli_a1b2c3d4e5f60718' };

describe('which fields hold a secret written out', () => {
  it.each<[string, unknown, string[]]>([
    ['references only', { bots: [{ ...bot, appSecret: '${LARK_APP_SECRET}', env: { K: '${ANTHROPIC_API_KEY}' } }] }, []],
    ['an app secret literal', { bots: [{ ...bot, appSecret: 'abc123' }] }, ['bots[0].appSecret']],
    ['event keys and tokens', { bots: [{ ...bot, appSecret: '${S}', encryptKey: 'k', verificationToken: 'v' }] }, ['bots[0].encryptKey', 'bots[0].verificationToken']],
    ['a bot env value', { bots: [{ ...bot, appSecret: '${S}', env: { ANTHROPIC_API_KEY: 'sk-ant-x', REF: '${R}' } }] }, ['bots[0].env.ANTHROPIC_API_KEY']],
    ['a console env value', { console: { env: { OPENAI_API_KEY: 'sk-x' } } }, ['console.env.OPENAI_API_KEY']],
    ['a reference with text around it is partly written out', { bots: [{ ...bot, appSecret: 'pre-${S}' }] }, ['bots[0].appSecret']],
    ['an empty value holds nothing', { bots: [{ ...bot, appSecret: '' }] }, []],
    ['no file content', null, []],
    ['a malformed bots list', { bots: 'x', console: true }, []],
  ])('%s', (_name, raw, want) => {
    expect(literalSecretFields(raw)).toEqual(want);
  });
});

describe('the verdict on the file mode', () => {
  const path = '/home/u/.larkmux/config.json';
  it.each<[string, number, string[], string | null]>([
    ['0600 with secrets', 0o100600, ['bots[0].appSecret'], null],
    ['0400 with secrets', 0o100400, ['bots[0].appSecret'], null],
    ['0644 with secrets', 0o100644, ['bots[0].appSecret'], `${path} (mode 644) holds secrets (bots[0].appSecret) and every user of this machine can read it`],
    ['0640 with secrets', 0o100640, ['bots[0].appSecret', 'console.env.K'], `${path} (mode 640) holds secrets (bots[0].appSecret, console.env.K) and its group can read it`],
    ['0644 with many secrets', 0o100644, ['a', 'b', 'c', 'd', 'e'], `${path} (mode 644) holds secrets (a, b, c and 2 more) and every user of this machine can read it`],
    ['0644 with references only', 0o100644, [], null],
    ['0666 even without secrets', 0o100666, [], `${path} (mode 666) can be changed by other users, who could then choose what larkmux runs as you`],
    ['0620 group-writable', 0o100620, ['x'], `${path} (mode 620) can be changed by other users, who could then choose what larkmux runs as you`],
  ])('%s', (_name, mode, fields, problem) => {
    const v = configExposure(path, mode, fields);
    if (problem === null) expect(v.ok).toBe(true);
    else expect(v).toEqual({ ok: false, problem, fix: `chmod 600 ${path}` });
  });
});
