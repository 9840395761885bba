// The systemd user unit `larkmux service install` writes: the lines systemd acts on, for plain and awkward paths.
import { describe, expect, it } from 'vitest';
import { serviceUnitPath, serviceUnitText, unitWord } from '../../src/cli/service/unit.js';

const plain = { node: '/usr/bin/node', script: '/opt/larkmux/bin/larkmux.js', larkmuxHome: '/home/u/.larkmux', path: '/usr/local/bin:/usr/bin:/bin' };

/** The value of every `Key=` line, in order (a key may repeat, as Environment does). */
function lines(text: string, key: string): string[] {
  return text.split('\n').filter((l) => l.startsWith(`${key}=`)).map((l) => l.slice(key.length + 1));
}

describe('serviceUnitText', () => {
  it.each([
    ['plain paths', plain, '"/usr/bin/node" "/opt/larkmux/bin/larkmux.js" start --foreground', ['"LARKMUX_HOME=/home/u/.larkmux"', '"PATH=/usr/local/bin:/usr/bin:/bin"']],
    [
      'spaces, quotes, % and $ stay literal',
      { node: '/n v/node', script: '/a "b"/100%/$HOME/larkmux.js', larkmuxHome: '/h o/%h', path: undefined },
      '"/n v/node" "/a \\"b\\"/100%%/$$HOME/larkmux.js" start --foreground',
      ['"LARKMUX_HOME=/h o/%%h"'],
    ],
  ])('%s', (_what, input, execStart, environment) => {
    const text = serviceUnitText(input);
    expect(lines(text, 'ExecStart')).toEqual([execStart]);
    expect(lines(text, 'Environment')).toEqual(environment);
    // The CLIs live in tmux, outside the daemon's process: only the daemon is stopped with the unit.
    expect(lines(text, 'KillMode')).toEqual(['process']);
    expect(lines(text, 'Restart')).toEqual(['on-failure']);
    expect(lines(text, 'RestartPreventExitStatus')).toEqual(['78']);
    expect(lines(text, 'WantedBy')).toEqual(['default.target']);
  });

  it.each([
    ['a backslash', 'C:\\x', '"C:\\\\x"'],
    ['a tmux key name', 'C-c', '"C-c"'],
    ['CJK', '/home/用户/node', '"/home/用户/node"'],
  ])('unitWord quotes %s', (_what, raw, quoted) => {
    expect(unitWord(raw)).toBe(quoted);
  });
});

describe('serviceUnitPath', () => {
  it.each([
    ['HOME only', {}, '/home/u/.config/systemd/user/larkmux.service'],
    ['XDG_CONFIG_HOME', { XDG_CONFIG_HOME: '/xdg' }, '/xdg/systemd/user/larkmux.service'],
    ['a relative XDG_CONFIG_HOME is ignored, as the spec says', { XDG_CONFIG_HOME: 'rel' }, '/home/u/.config/systemd/user/larkmux.service'],
  ])('%s', (_what, env, want) => {
    expect(serviceUnitPath(env, '/home/u')).toBe(want);
  });
});
