// Which sessions still run on the pre-per-home (default) tmux server, and where to look for them.
import { describe, expect, it } from 'vitest';
import { LEGACY_TMUX_SOCKET, legacyTmuxSocket, sessionsOnLegacyServer } from '../../src/shared/tmux-socket.js';

describe('legacyTmuxSocket', () => {
  it.each<[string, string | null, Record<string, string | undefined>, string | null]>([
    ['a derived socket: the old sessions were on tmux default server', null, {}, LEGACY_TMUX_SOCKET],
    ['tests point it at an isolated server', null, { LARKMUX_LEGACY_TMUX_SOCKET: 'lmx-t-old' }, 'lmx-t-old'],
    ['an empty override is no override', null, { LARKMUX_LEGACY_TMUX_SOCKET: '' }, LEGACY_TMUX_SOCKET],
    ['a configured socket was always used: no legacy server', 'mine', {}, null],
  ])('%s', (_name, configured, env, expected) => expect(legacyTmuxSocket(configured, env)).toBe(expected));
});

describe('sessionsOnLegacyServer', () => {
  const owned = new Set(['lmx-00000001', 'lmx-00000002', 'lmx-00000003']);
  it.each<[string, string[], string[], string[]]>([
    ['owned and only on the old server', [], ['lmx-00000002', 'lmx-00000001'], ['lmx-00000001', 'lmx-00000002']],
    ['already on the home server: the home one is served', ['lmx-00000001'], ['lmx-00000001'], []],
    ["another home's or a person's session is never ours", [], ['lmx-0badc0de', 'work'], []],
    ['nothing on the old server', ['lmx-00000003'], [], []],
  ])('%s', (_name, onHome, onLegacy, expected) => expect(sessionsOnLegacyServer(owned, onHome, onLegacy)).toEqual(expected));
});
