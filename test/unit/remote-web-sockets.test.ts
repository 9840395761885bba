// Where the sockets of a remote session's web terminal go and how the forward between them is asked of ssh: the
// worker's socket on the host, the forward's local end here (both within a unix socket's 108 bytes), and the
// `ssh -O forward|cancel -L` argv, which takes no path ssh would split or mangle.
import { describe, expect, it } from 'vitest';
import { controlPath, socketForwardArgv } from '../../src/platform/ssh/ssh-argv.js';
import { MAX_FORWARD_SOCKET_PATH, forwardSocketPath } from '../../src/daemon/workers/remote-web-forwards.js';
import { MAX_WEB_SOCKET_PATH, webSocketPath } from '../../src/worker/runtime/web.js';
import type { HostConfig } from '../../src/shared/host-config.js';

const gpu: HostConfig = { name: 'gpu1', ssh: 'me@gpu1.lan', port: 2222 };
const places = { runDir: '/home/me/.larkmux/run', knownHosts: '/home/me/.larkmux/known_hosts', fallbackRunDir: '/tmp/lmx-ssh-1000-abc' };
const SESSION = '0123abcd-0000-4000-8000-000000000000';
const deep = `/home/me/${'a-very-long-folder-name/'.repeat(4)}.larkmux`;

describe('socketForwardArgv', () => {
  it.each([
    { op: 'forward' as const, local: '/l/web-fwd-1.sock', remote: '/r/run/web-1.sock', ok: true },
    { op: 'cancel' as const, local: '/l/web-fwd-1.sock', remote: '/r/run/web-1.sock', ok: true },
    { op: 'forward' as const, local: '/l/a:b.sock', remote: '/r/web-1.sock', ok: false, why: 'a colon splits the spec' },
    { op: 'forward' as const, local: '/l/web.sock', remote: '/r/with space/web.sock', ok: false, why: 'a blank' },
    { op: 'forward' as const, local: '/l/web.sock', remote: '/r/web.sock\n-oProxyCommand=x', ok: false, why: 'a line break' },
    { op: 'forward' as const, local: 'relative.sock', remote: '/r/web.sock', ok: false, why: 'not absolute' },
    { op: 'forward' as const, local: '/l/web.sock', remote: 'localhost:22', ok: false, why: 'a TCP target' },
  ])('$op $local → $remote: $ok', ({ op, local, remote, ok }) => {
    const argv = socketForwardArgv(gpu, places, op, local, remote);
    if (!ok) return expect(argv).toBeUndefined();
    // Only the master's socket and the spec: the mux client sends the forward to the running master, nothing else.
    expect(argv).toEqual(['-o', `ControlPath="${controlPath(gpu, places)}"`, '-O', op, '-L', `${local}:${remote}`, '--', 'me@gpu1.lan']);
  });
});

describe('socket paths within a unix socket\'s limit', () => {
  it.each([
    { home: '/home/me/.larkmux', want: '/home/me/.larkmux/run/web-0123abcd.sock' },
    { home: deep, want: /^\/tmp\/lmx-web-\d+-[0-9a-f]{10}\/web-0123abcd\.sock$/ },
  ])('the worker\'s socket for home $home', ({ home, want }) => {
    const path = webSocketPath(home, SESSION);
    if (typeof want === 'string') expect(path).toBe(want);
    else expect(path).toMatch(want);
    expect(Buffer.byteLength(path)).toBeLessThanOrEqual(MAX_WEB_SOCKET_PATH);
  });

  it('two homes too deep for their run folder get two folders in /tmp', () => {
    expect(webSocketPath(`${deep}-a`, SESSION)).not.toBe(webSocketPath(`${deep}-b`, SESSION));
  });

  it.each([
    { runDir: '/home/me/.larkmux/run', want: '/home/me/.larkmux/run/web-fwd-0123abcd.sock' },
    { runDir: `${deep}/run`, want: '/tmp/lmx-ssh-1000-abc/web-fwd-0123abcd.sock' },
  ])('the forward\'s local end for run folder $runDir', ({ runDir, want }) => {
    const path = forwardSocketPath({ runDir, fallbackRunDir: places.fallbackRunDir }, SESSION);
    expect(path).toBe(want);
    expect(Buffer.byteLength(path)).toBeLessThanOrEqual(MAX_FORWARD_SOCKET_PATH);
  });
});
