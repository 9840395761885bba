// Per-holder WebSocket caps of the web terminal: who a viewer is, and which cap a new connection would go past.
import { describe, expect, it } from 'vitest';
import { WEB_PROXY_LIMITS } from '../../src/daemon/web/web-proxy.js';
import { socketCapExceeded, viewerOf, type SocketHolder } from '../../src/daemon/web/web-socket-caps.js';

const read = (viewer: string): SocketHolder => ({ access: { mode: 'read' }, viewer });
const write = (userId: string, viewer = '127.0.0.1'): SocketHolder => ({ access: { mode: 'write', userId }, viewer });
const times = (n: number, h: SocketHolder): SocketHolder[] => Array.from({ length: n }, () => h);
const CAPS = WEB_PROXY_LIMITS;

describe('viewerOf', () => {
  it.each<[string | undefined, string | string[] | undefined, string]>([
    ['192.0.2.5', undefined, '192.0.2.5'],
    ['::ffff:192.0.2.5', undefined, '192.0.2.5'],
    ['192.0.2.5', '10.9.9.9', '192.0.2.5'], // a remote peer's X-Forwarded-For is not believed
    ['127.0.0.1', undefined, '127.0.0.1'],
    ['127.0.0.1', '203.0.113.7', 'via-proxy:203.0.113.7'],
    ['::1', '198.51.100.1, 203.0.113.7', 'via-proxy:203.0.113.7'], // only the entry the local proxy appended
    ['::ffff:127.0.0.1', ['198.51.100.1', '203.0.113.9'], 'via-proxy:203.0.113.9'],
    ['127.0.0.1', '', '127.0.0.1'],
    [undefined, undefined, ''],
  ])('peer %s, X-Forwarded-For %j → %s', (peer, xff, want) => {
    expect(viewerOf(peer, xff)).toBe(want);
  });
});

describe('socketCapExceeded', () => {
  it.each<[string, SocketHolder[], SocketHolder, string | null]>([
    ['the first view', [], read('a'), null],
    ['a viewer below its share', times(CAPS.viewSocketsPerViewer - 1, read('a')), read('a'), null],
    ['a viewer at its share', times(CAPS.viewSocketsPerViewer, read('a')), read('a'), 'view_viewer'],
    ['another viewer beside a full one', times(CAPS.viewSocketsPerViewer, read('a')), read('b'), null],
    ['a full session', ['a', 'b', 'c', 'd'].flatMap((v) => times(CAPS.viewSocketsPerSession / 4, read(v))), read('e'), 'view_session'],
    ['writers do not use view places', times(CAPS.viewSocketsPerViewer, write('ou_x', 'a')), read('a'), null],
    ['a writer below the cap', times(CAPS.writeSocketsPerUser - 1, write('ou_x')), write('ou_x'), null],
    ['a writer at the cap', times(CAPS.writeSocketsPerUser, write('ou_x')), write('ou_x'), 'write_user'],
    ['another writer', times(CAPS.writeSocketsPerUser, write('ou_x')), write('ou_y'), null],
  ])('%s', (_what, open, next, want) => {
    expect(socketCapExceeded(open, next, CAPS)).toBe(want);
  });
});
