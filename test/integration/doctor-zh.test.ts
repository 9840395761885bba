// `larkmux doctor` and `larkmux hosts check` in the terminal's language: with LANG=zh_CN.UTF-8 every detail and fix is
// Chinese while labels and levels stay as scripts grep them, and `--json` stays English (it is never translated).
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { larkmuxCommand } from '../../src/platform/larkmux-command.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { runLarkmux } from '../support/larkmux-cli.js';

interface Line { level: string; label: string; detail: string; fix?: string }

const HAN = /[\u4e00-\u9fff]/;

/** The text output read back into lines: `LEVEL label detail`, then `     fix: …` under it when there is one. */
function parseText(stdout: string): Line[] {
  const lines: Line[] = [];
  for (const row of stdout.split('\n')) {
    const fix = /^ {5}fix: (.*)$/.exec(row);
    if (fix && lines.length) lines[lines.length - 1]!.fix = fix[1];
    const m = /^(OK|WARN|FAIL) +(.{18}) (.*)$/.exec(row);
    if (m) lines.push({ level: m[1]!, label: m[2]!.trimEnd(), detail: m[3]! });
  }
  return lines;
}

describe('doctor in the terminal’s language', () => {
  let home: TestHome;
  let emptyBin: string;
  beforeEach(() => {
    home = makeTestHome();
    // No config.json, a home others can read, and a PATH with no tmux and no coding CLI on it.
    chmodSync(home.dir, 0o755);
    emptyBin = mkdtempSync(join(tmpdir(), 'lmx-bin-'));
  });
  afterEach(() => {
    home.cleanup();
    rmSync(emptyBin, { recursive: true, force: true });
  });

  it('prints Chinese details and fixes under LANG=zh_CN.UTF-8, and English JSON', async () => {
    const env = { ...home.env, PATH: emptyBin, LANG: 'zh_CN.UTF-8' };
    const cmd = larkmuxCommand(env);
    const text = await runLarkmux(['doctor'], env);
    const zh = parseText(text.stdout);
    const byLabel = (lines: Line[], label: string) => lines.find((l) => l.label === label);

    expect(byLabel(zh, 'config')).toEqual({ level: 'WARN', label: 'config', detail: `尚无 ${home.paths.config}`, fix: `运行 \`${cmd} setup\` 接入一个机器人` });
    expect(byLabel(zh, 'home')).toEqual({ level: 'WARN', label: 'home', detail: `${home.dir}（权限 755）`, fix: `chmod 700 ${home.dir}（其中保存着令牌和日志）` });
    expect(byLabel(zh, 'cli claude-code')).toEqual({ level: 'WARN', label: 'cli claude-code', detail: 'PATH 中未找到 claude', fix: 'npm install -g @anthropic-ai/claude-code' });
    expect(byLabel(zh, 'tmux')).toEqual({ level: 'WARN', label: 'tmux', detail: '未找到 tmux：会话将在普通 pty 中运行，重启后不会保留', fix: 'apt-get install tmux（或用系统的包管理器安装）' });

    const json = await runLarkmux(['doctor', '--json'], env);
    expect(json.stdout).not.toMatch(HAN);
    const en = JSON.parse(json.stdout) as Line[];
    expect(byLabel(en, 'config')).toEqual({ level: 'WARN', label: 'config', detail: `no ${home.paths.config} yet`, fix: `run \`${cmd} setup\` to connect a bot` });
    expect(byLabel(en, 'home')).toEqual({ level: 'WARN', label: 'home', detail: `${home.dir} (mode 755)`, fix: `chmod 700 ${home.dir} (it holds tokens and logs)` });
    expect(byLabel(en, 'cli claude-code')).toEqual({ level: 'WARN', label: 'cli claude-code', detail: 'claude not found on PATH', fix: 'npm install -g @anthropic-ai/claude-code' });

    // The same checks, labels and levels in both: only the words changed.
    expect(zh.map((l) => [l.level, l.label])).toEqual(en.map((l) => [l.level, l.label]));
    expect(text.code).toBe(json.code);
    // The English text output is the JSON's, word for word.
    const plain = await runLarkmux(['doctor'], { ...env, LANG: 'C.UTF-8' });
    expect(parseText(plain.stdout)).toEqual(en.map((l) => (l.fix === undefined ? { level: l.level, label: l.label, detail: l.detail } : l)));
  });

  it('says which hosts there are in Chinese when `hosts check` names none that is configured', async () => {
    home.writeConfig({ hosts: [{ name: 'gpu1', ssh: 'me@gpu1' }] });
    const env = { ...home.env, LANG: 'zh_CN.UTF-8' };
    const res = await runLarkmux(['hosts', 'check', 'nope'], env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`larkmux hosts check：没有名为 "nope" 的主机（已配置：gpu1）；用 \`${larkmuxCommand(env)} hosts add NAME user@host\` 添加`);
  });
});
