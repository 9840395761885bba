// The environment policy (issue 13 finding 2, DESIGN §11): allowlisted, one module, the same answer everywhere.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cliBaseEnv, namesToUnset, tmuxClientEnv, workerEnv } from '../../src/shared/env-policy.js';
import { launchScript } from '../../src/worker/backend/launch-file.js';

const DAEMON_ENV = {
  PATH: '/usr/bin', HOME: '/home/u', LANG: 'zh_CN.UTF-8', LC_ALL: 'C.UTF-8', TMUX_TMPDIR: '/run/t', HTTPS_PROXY: 'http://p:3128',
  LARKMUX_HOME: '/h', LARKMUX_LOG_LEVEL: 'debug', LARK_APP_SECRET: 'a', MY_FEISHU_SECRET: 'b', OPENAI_API_KEY: 'c',
  AWS_SECRET_ACCESS_KEY: 'd', TMUX: '/tmp/x,1,0', TMUX_PANE: '%1', NODE_OPTIONS: '--require /tmp/x.js',
};

describe('environment policy', () => {
  it('a worker inherits only the allowlist and its own settings, never a config-named variable', () => {
    expect(workerEnv(DAEMON_ENV, ['HTTPS_PROXY'])).toEqual({
      PATH: '/usr/bin', HOME: '/home/u', LANG: 'zh_CN.UTF-8', LC_ALL: 'C.UTF-8', TMUX_TMPDIR: '/run/t', LARKMUX_HOME: '/h', LARKMUX_LOG_LEVEL: 'debug',
    });
  });

  it.each<[string, Record<string, string>, string | undefined]>([
    ['no locale at all (a bare service unit, a command over ssh): C.UTF-8', { PATH: '/usr/bin' }, 'C.UTF-8'],
    ['an empty LANG counts as none', { LANG: ' ' }, 'C.UTF-8'],
    ['LANG kept', { LANG: 'zh_CN.UTF-8' }, 'zh_CN.UTF-8'],
    ['LC_ALL alone decides: LANG not added', { LC_ALL: 'en_US.UTF-8' }, undefined],
    ['LC_CTYPE alone decides: LANG not added', { LC_CTYPE: 'C.UTF-8' }, undefined],
  ])('a worker reads characters in a named locale: %s', (_what, env, lang) => {
    expect(workerEnv(env).LANG).toBe(lang);
  });

  it('tmux clients and CLIs get the inherited names only (no larkmux settings, no TMUX); a terminal client sets TERM', () => {
    const base = { PATH: '/usr/bin', HOME: '/home/u', LANG: 'zh_CN.UTF-8', LC_ALL: 'C.UTF-8', TMUX_TMPDIR: '/run/t', HTTPS_PROXY: 'http://p:3128' };
    expect(cliBaseEnv(DAEMON_ENV)).toEqual(base);
    expect(tmuxClientEnv(DAEMON_ENV)).toEqual(base);
    expect(tmuxClientEnv(DAEMON_ENV, { term: 'xterm-256color' })).toEqual({ ...base, TERM: 'xterm-256color' });
  });

  it.each([
    ['PATH=/bin\nSECRET_X=1\n-REMOVED\nHOME=/h\nBOT_KEY=old\n', { BOT_KEY: 'new' }, ['SECRET_X']],
    ['', {}, []],
    // A multi-line value can look like NAME=… lines: unsetting a name that is not allowed anyway is harmless.
    ['NOTE=line one\nFAKE=line two\nLC_CTYPE=C\n', {}, ['FAKE', 'NOTE']],
  ])('names a foreign tmux server holds that are unset before the CLI starts: %j', (out, bot, names) => {
    expect(namesToUnset(out, bot)).toEqual(names);
  });

  it('the launch file, sourced by sh, sets every value byte for byte and unsets the rest', () => {
    const odd = `it's "q" $(echo no) \`echo no\` \\ ; #{x}\nline 2 ${'你好🚀'}`;
    const script = launchScript({ ODD: odd, EMPTY: '' }, ['SECRET_X']);
    const out = execFileSync('/bin/sh', ['-c', `${script}\nprintf '%s|%s|%s' "$ODD" "$EMPTY" "\${SECRET_X-unset}"`], { env: { SECRET_X: 'leak', PATH: '/usr/bin:/bin' } }).toString();
    expect(out).toBe(`${odd}||unset`);
  });
});
