// `host:dir` as /cd reads it (src/shared/session-place.ts): which host, which folder, and what confinement refuses.
import { describe, expect, it } from 'vitest';
import { formatPlace, hostPickerEntries, isWithin, normalizeAbsolute, parsePlace, pickerChoices, readPlace, splitPlace, type PlaceContext, type PlaceResult } from '../../src/shared/session-place.js';

const ctx = (over: Partial<PlaceContext> = {}): PlaceContext => ({
  hosts: [
    { name: 'gpu1', workingDirs: ['/srv', '/home/ops/work/'] },
    { name: 'build', workingDirs: [] },
    { name: 'tilde', workingDirs: ['~/work'] },
  ],
  defaultHost: 'local',
  localHome: '/home/me',
  baseFor: (host) => ({ local: '/home/me/proj', gpu1: '/srv/app' } as Record<string, string | undefined>)[host],
  ...over,
});

const ok = (host: string, dir: string): PlaceResult => ({ ok: true, host, dir });

describe('parsePlace', () => {
  const cases: [string, string, Partial<PlaceContext>, PlaceResult][] = [
    ['a named host and an absolute folder', 'gpu1:/srv/app', {}, ok('gpu1', '/srv/app')],
    ['local named explicitly', 'local:/x', {}, ok('local', '/x')],
    ['a bare absolute folder goes to the default host (local)', '/plain/path', {}, ok('local', '/plain/path')],
    ['a bare absolute folder goes to the bot\'s default host', '/srv/web', { defaultHost: 'gpu1' }, ok('gpu1', '/srv/web')],
    ['a folder with ":" in it is a folder, not a host', '/tmp/a:b', {}, ok('local', '/tmp/a:b')],
    ['a relative folder with ":" behind ./ is a folder', './a:b', {}, ok('local', '/home/me/proj/a:b')],
    ['a relative folder starts at the session\'s folder on that host', 'gpu1:lib/..//src', {}, ok('gpu1', '/srv/app/src')],
    ['a relative folder on local', 'sub', {}, ok('local', '/home/me/proj/sub')],
    ['~ on local is this machine\'s home', 'local:~/x', {}, ok('local', '/home/me/x')],
    ['"host:" alone is the folder a relative path starts at there', 'gpu1:', {}, ok('gpu1', '/srv/app')],
    ['a host without roots takes any absolute folder', 'build:/anywhere/at/all', {}, ok('build', '/anywhere/at/all')],
    ['a root written with a trailing slash still admits its folders', 'gpu1:/home/ops/work/x', {}, ok('gpu1', '/home/ops/work/x')],
    ['an unknown host names the known ones', 'nope:/x', {}, { ok: false, error: { code: 'unknown_host', host: 'nope', known: ['local', 'gpu1', 'build', 'tilde'] } }],
    ['a lower-case drive is refused as such', 'c:/x', {}, { ok: false, error: { code: 'drive_letter', input: 'c:/x' } }],
    ['a one-letter host that is configured wins over the drive reading', 'c:/x', { hosts: [{ name: 'c' }] }, ok('c', '/x')],
    ['a Windows drive is refused as such', 'C:\\Users\\me', {}, { ok: false, error: { code: 'drive_letter', input: 'C:\\Users\\me' } }],
    ['a bare drive is refused as such', 'C:', {}, { ok: false, error: { code: 'drive_letter', input: 'C:' } }],
    ['outside the host\'s roots', 'gpu1:/etc', {}, { ok: false, error: { code: 'outside_roots', host: 'gpu1', dir: '/etc', roots: ['/srv', '/home/ops/work/'] } }],
    ['.. is resolved before confinement', 'gpu1:/srv/app/../../etc', {}, { ok: false, error: { code: 'outside_roots', host: 'gpu1', dir: '/etc', roots: ['/srv', '/home/ops/work/'] } }],
    ['a name that only starts like a root is outside it', 'gpu1:/srvx', {}, { ok: false, error: { code: 'outside_roots', host: 'gpu1', dir: '/srvx', roots: ['/srv', '/home/ops/work/'] } }],
    ['a root that is not absolute admits nothing', 'tilde:/home/u/work', {}, { ok: false, error: { code: 'outside_roots', host: 'tilde', dir: '/home/u/work', roots: ['~/work'] } }],
    ['~ on another host is not known here', 'gpu1:~/x', {}, { ok: false, error: { code: 'needs_absolute', host: 'gpu1', input: '~/x' } }],
    ['a relative folder on a host with no base', 'build:src', {}, { ok: false, error: { code: 'needs_absolute', host: 'build', input: 'src' } }],
    ['nothing written', '   ', {}, { ok: false, error: { code: 'empty' } }],
  ];
  it.each(cases)('%s: %s', (_why, input, over, want) => {
    expect(parsePlace(input, ctx(over))).toEqual(want);
  });
});

describe('the parts', () => {
  it.each([
    ['gpu1:/a', { host: 'gpu1', dir: '/a' }],
    ['/a:b', { dir: '/a:b' }],
    ['Gpu:/a', { dir: 'Gpu:/a' }],
    [':x', { dir: ':x' }],
  ])('splitPlace(%s)', (input, want) => expect(splitPlace(input)).toEqual(want));

  it.each([
    ['/a/./b//c/', '/a/b/c'],
    ['/a/../../b', '/b'],
    ['/', '/'],
  ])('normalizeAbsolute(%s) = %s', (input, want) => expect(normalizeAbsolute(input)).toBe(want));

  it.each([
    ['/srv', '/srv', true],
    ['/srv/a', '/srv', true],
    ['/srvx', '/srv', false],
    ['/anything', '/', true],
  ] as const)('isWithin(%s, %s) = %s', (dir, root, want) => expect(isWithin(dir, root)).toBe(want));

  it('writes a place back as it is read', () => {
    expect(formatPlace({ host: 'gpu1', dir: '/srv/app' })).toBe('gpu1:/srv/app');
    expect(formatPlace({ host: 'local', dir: '/x' })).toBe('/x');
  });
});

describe('places larkmux wrote itself', () => {
  it.each([
    ['gpu1:/srv/app', { host: 'gpu1', dir: '/srv/app' }],
    ['local:/x', { host: 'local', dir: '/x' }],
    ['/home/me/a:b', { host: 'local', dir: '/home/me/a:b' }],
    ['gone:/x', { host: 'local', dir: 'gone:/x' }],
  ])('readPlace(%s)', (value, want) => expect(readPlace(value, ['gpu1'])).toEqual(want));

  it('lists each host\'s absolute roots for the picker, and no relative one', () => {
    expect(hostPickerEntries([{ name: 'gpu1', workingDirs: ['/srv/app/', '~/x', '/'] }, { name: 'b' }])).toEqual([
      { label: 'gpu1:app', path: 'gpu1:/srv/app' },
      { label: 'gpu1:/', path: 'gpu1:/' },
    ]);
  });
});

describe('pickerChoices', () => {
  it.each<[string, string[], string[], string[]]>([
    ['no hosts: the projects as before', ['/w/a', '/w/b'], [], ['/w/a', '/w/b']],
    ['no hosts, one project: that one (taken without asking)', ['/w/a'], [], ['/w/a']],
    ['no hosts, no projects: nothing to pick', [], [], []],
    ['hosts and projects: the projects, then the hosts', ['/w/a'], ['gpu1:/srv'], ['/w/a', 'gpu1:/srv']],
    ['hosts, no projects: the bot\'s folder stays a choice', [], ['gpu1:/srv'], ['/home/me', 'gpu1:/srv']],
  ])('%s', (_what, projects, hosts, want) => expect(pickerChoices(projects, hosts, '/home/me')).toEqual(want));
});
