// `hosts` in config.json, merging a host into the raw file, and the verdicts of `hosts check`: table-driven.
import { describe, expect, it } from 'vitest';
import { mergeHost } from '../../src/cli/hosts/merge-host.js';
import { parseProbe, probePrograms, probeScript, probeVerdicts, versionOf } from '../../src/cli/hosts/probe.js';
import { parseConfig } from '../../src/shared/config.js';
import { translator } from '../../src/shared/i18n.js';

describe('hosts in config.json', () => {
  const ok = (hosts: unknown) => parseConfig({ hosts }, {});
  it.each([
    ['none', undefined],
    ['one', [{ name: 'gpu1', ssh: 'me@gpu1.lan' }]],
    ['every field', [{ name: 'build-box', ssh: 'ci@10.0.0.5', port: 2222, identityFile: '~/.ssh/id_build', workingDirs: ['/srv'], maxLiveWorkers: 5, maxLiveClis: 3 }]],
    ['an IPv6 target', [{ name: 'v6', ssh: 'me@[fe80::1]' }]],
  ])('accepts %s', (_what, hosts) => expect(ok(hosts).ok).toBe(true));

  it.each([
    ['the reserved name local', [{ name: 'local', ssh: 'me@h' }], '"local" is this machine'],
    ['a duplicate name', [{ name: 'a', ssh: 'me@h' }, { name: 'a', ssh: 'me@g' }], 'used twice'],
    ['an upper-case name', [{ name: 'GPU', ssh: 'me@h' }], 'lower-case'],
    ['a target without user', [{ name: 'a', ssh: 'gpu1' }], 'user@host'],
    ['a target that reads as an option', [{ name: 'a', ssh: 'me@-oProxyCommand=x' }], 'user@host'],
    ['a port out of range', [{ name: 'a', ssh: 'me@h', port: 70000 }], 'port'],
    ['an unknown field', [{ name: 'a', ssh: 'me@h', password: 'x' }], 'password'],
  ])('refuses %s', (_what, hosts, text) => {
    const res = ok(hosts);
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.errors.join('\n')).toContain(text);
  });
});

describe('mergeHost', () => {
  it('appends a new host and keeps everything else', () => {
    const res = mergeHost({ bots: [{ name: 'b' }], web: { port: 1 } }, { name: 'gpu1', ssh: 'me@h' });
    expect(res).toEqual({ ok: true, replaced: false, raw: { bots: [{ name: 'b' }], web: { port: 1 }, hosts: [{ name: 'gpu1', ssh: 'me@h' }] } });
  });
  it('updates a known host in place, keeping its other settings', () => {
    const res = mergeHost({ hosts: [{ name: 'gpu1', ssh: 'me@h', port: 22, identityFile: '/k', workingDirs: ['/srv'] }] }, { name: 'gpu1', ssh: 'me@h2', port: 2222 });
    expect(res).toEqual({ ok: true, replaced: true, raw: { hosts: [{ name: 'gpu1', ssh: 'me@h2', port: 2222, workingDirs: ['/srv'] }] } });
  });
  it('refuses a hosts value that is not a list', () => expect(mergeHost({ hosts: {} }, { name: 'a', ssh: 'me@h' }).ok).toBe(false));
});

describe('hosts check verdicts', () => {
  const host = { name: 'gpu1', ssh: 'me@gpu1', workingDirs: ['/srv/app', '~/code'] };
  const programs = probePrograms([{ name: 'b', cli: 'codex' }, { name: 'c', cli: 'codex' }, { name: 's', cli: 'shell' }]);
  const verdicts = (stdout: string) => probeVerdicts(host, parseProbe(stdout), programs, translator('en'));
  const level = (stdout: string, label: string) => verdicts(stdout).find((l) => l.label === label)?.level;

  it('looks only for the CLIs the bots use, once each', () => expect(programs.map((p) => [p.label, p.used])).toEqual([['cli codex', true]]));
  it('looks for every CLI (as warnings) when no bot uses one', () => expect(probePrograms([]).every((p) => !p.used)).toBe(true));

  it.each([
    ['node new enough', 'node=v20.19.0', 'node', 'OK'],
    ['node too old', 'node=v20.18.3', 'node', 'FAIL'],
    ['node missing', 'node=', 'node', 'FAIL'],
    ['tmux new enough', 'tmux=tmux 3.3a', 'tmux', 'OK'],
    ['tmux next', 'tmux=tmux next-3.4', 'tmux', 'OK'],
    ['tmux too old', 'tmux=tmux 3.1c', 'tmux', 'FAIL'],
    ['tmux without a version', 'tmux=tmux master', 'tmux', 'WARN'],
    ['a used CLI found', 'cli0=/usr/bin/codex', 'cli codex', 'OK'],
    ['a used CLI missing', 'cli0=', 'cli codex', 'FAIL'],
    ['plenty of disk', 'diskKiB=99999999', 'disk', 'OK'],
    ['little disk', 'diskKiB=1048576', 'disk', 'WARN'],
    ['no disk', 'diskKiB=1000', 'disk', 'FAIL'],
    ['disk unreadable', 'diskKiB=', 'disk', 'WARN'],
    ['a dir there', 'dir0=yes', 'workingDirs[0]', 'OK'],
    ['a dir missing', 'dir1=no', 'workingDirs[1]', 'FAIL'],
  ])('%s', (_what, stdout, label, want) => expect(level(stdout, label)).toBe(want));

  it('gives every miss a fix', () => {
    for (const l of verdicts('node=\ntmux=\ncli0=\ndiskKiB=1\ndir0=no\ndir1=no')) expect(l.fix, l.label).toBeTruthy();
  });

  it.each([
    ['v22.1.0', [22, 1]],
    ['tmux 3.2', [3, 2]],
    ['none', null],
  ])('version of %s', (text, want) => expect(versionOf(text)).toEqual(want));

  it('sends the folders quoted, a leading ~ left to the host', () => {
    const script = probeScript(programs, ["/srv/it's here", '~/code']);
    expect(script).toContain(`[ -d '/srv/it'\\''s here' ]`);
    expect(script).toContain(`[ -d "$HOME"/'code' ]`);
  });
});

describe('hosts check verdicts in Chinese', () => {
  const host = { name: 'gpu1', ssh: 'me@gpu1', port: 2222, workingDirs: ['/srv/app'] };
  const programs = probePrograms([{ name: 'b', cli: 'codex' }]);
  const answer = parseProbe('node=v18.1.0\ntmux=tmux master\ncli0=\ndiskKiB=1000\ndir0=no');

  it('keeps labels and levels, words every detail and fix in Chinese, and keeps commands and paths verbatim', () => {
    const en = probeVerdicts(host, answer, programs, translator('en'));
    const zh = probeVerdicts(host, answer, programs, translator('zh-CN'));
    expect(zh.map((l) => [l.level, l.label])).toEqual(en.map((l) => [l.level, l.label]));
    for (const l of zh) {
      expect(`${l.detail} ${l.fix ?? ''}`, l.label).toMatch(/[\u4e00-\u9fff]/);
      expect(`${l.detail} ${l.fix ?? ''}`, l.label).not.toMatch(/not found|does not exist|older than|free space/);
    }
    expect(zh.find((l) => l.label === 'cli codex')).toMatchObject({ detail: 'PATH 中未找到 codex（有机器人在用）', fix: '在 gpu1（me@gpu1）上：npm install -g @openai/codex' });
    expect(zh.find((l) => l.label === 'workingDirs[0]')?.fix).toBe('创建它（ssh -p 2222 me@gpu1 mkdir -p /srv/app），或修改 config.json 中该主机的 workingDirs');
    expect(en.find((l) => l.label === 'workingDirs[0]')).toMatchObject({ detail: '/srv/app does not exist on gpu1 (me@gpu1)', fix: "create it (ssh -p 2222 me@gpu1 mkdir -p /srv/app) or fix the host's workingDirs in config.json" });
  });
});
