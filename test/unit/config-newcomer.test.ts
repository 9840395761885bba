// Issue 15 item 7: every config mistake a newcomer makes gets an error that names the field and the fix.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { folderProblems } from '../../src/platform/config-file.js';
import { parseConfig } from '../../src/shared/config.js';

const SECRET = 'sEcReT-value-that-must-never-be-printed-42';
const bot = { name: 'claude', appId: 'cli_a1b2c3d4e5f60718', appSecret: SECRET };

function errorsOf(raw: unknown, env: NodeJS.ProcessEnv = {}): string {
  const res = parseConfig(raw, env);
  expect(res.ok).toBe(false);
  return res.ok ? '' : res.errors.join('\n');
}

describe('config errors name the fix', () => {
  const cases: [string, unknown, RegExp][] = [
    ['unknown cli lists the known ones', { bots: [{ ...bot, cli: 'claude' }] }, /bots\[0\]\.cli: unknown CLI "claude" \(did you mean "claude-code"\?\); use one of "claude-code", "codex", "gemini", "shell", or a custom/],
    ['missing appId says where to find it', { bots: [{ name: 'x', appSecret: SECRET }] }, /bots\[0\]\.appId: missing; add it: the App ID from the Feishu\/Lark developer console/],
    ['missing appSecret suggests the env form', { bots: [{ name: 'x', appId: bot.appId }] }, /bots\[0\]\.appSecret: missing; add it: the App Secret, best as "\$\{LARK_APP_SECRET\}"/],
    ['bad domain', { bots: [{ ...bot, domain: 'open.feishu' }] }, /bots\[0\]\.domain: "open\.feishu" is not allowed; use "feishu", "lark", or the http\(s\) base URL/],
    ['bad publicUrl', { web: { publicUrl: 'lmx.example.com' } }, /web\.publicUrl: "lmx\.example\.com" is not a full http\(s\) URL; write one like "https:\/\/lmx\.example\.com"/],
    ['$NAME without braces', { bots: [{ ...bot, appSecret: '$LARK_APP_SECRET' }] }, /bots\[0\]\.appSecret: "\$LARK_APP_SECRET" is taken literally; write "\$\{LARK_APP_SECRET\}" \(with braces\)/],
    ['${BAD NAME}', { bots: [{ ...bot, appSecret: '${BAD NAME}' }] }, /bots\[0\]\.appSecret: a \$\{…\} reference needs a variable name of letters, digits and _/],
    ['unclosed ${', { bots: [{ ...bot, env: { TOKEN: '${TOKEN' } }] }, /bots\[0\]\.env\.TOKEN: a \$\{…\} reference needs a variable name/],
    ['regex that does not compile', { bots: [{ ...bot, cli: { command: 'htop', readyPattern: 'F1(Help' } }] }, /bots\[0\]\.cli\.readyPattern: not a valid regular expression \(.*Unterminated group\); fix it/],
    ['busy regex too', { bots: [{ ...bot, cli: { command: 'htop', readyPattern: 'ok', busyPattern: '[a-' } }] }, /bots\[0\]\.cli\.busyPattern: not a valid regular expression/],
  ];
  it.each(cases)('%s', (_name, raw, expected) => {
    expect(errorsOf(raw, { LARK_APP_SECRET: 'x' })).toMatch(expected);
  });

  it('keeps what was valid: ${NAME}, $ inside values and regexes with $ and {', () => {
    const res = parseConfig(
      { bots: [{ ...bot, appSecret: '${LARK_APP_SECRET}', env: { PS1: 'a$ b', PRICE: '$5' }, cli: { command: 'sh', readyPattern: '\\$ x{2}\\{$' } }] },
      { LARK_APP_SECRET: SECRET },
    );
    expect(res.ok).toBe(true);
  });

  it('never echoes a secret in the new messages', () => {
    for (const raw of [{ bots: [{ ...bot, appSecret: `\${${SECRET}` }] }, { bots: [{ ...bot, cli: SECRET }] }, { bots: [{ ...bot, domain: SECRET }] }]) {
      expect(errorsOf(raw)).not.toContain(SECRET.slice(0, 12));
    }
  });
});

describe('configured folders must exist (issue 15 item 4)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lmx-cfgdir-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names a missing workingDir and a missing project folder with the fix', () => {
    const res = parseConfig({ bots: [{ ...bot, workingDir: join(dir, 'nope'), projects: [dir, join(dir, 'gone')] }] });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(folderProblems(res.config)).toEqual([
      `bots[0].workingDir: the folder ${join(dir, 'nope')} does not exist; create it (mkdir -p ${join(dir, 'nope')}) or fix the path`,
      `bots[0].projects[1]: the folder ${join(dir, 'gone')} does not exist; create it (mkdir -p ${join(dir, 'gone')}) or fix the path`,
    ]);
  });

  it('accepts existing folders and ~', () => {
    const res = parseConfig({ bots: [{ ...bot, workingDir: '~', projects: [dir] }] });
    expect(res.ok && folderProblems(res.config)).toEqual([]);
  });
});
