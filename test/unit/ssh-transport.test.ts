// The ssh argv, the reading of ssh's failures and the known_hosts text: pure functions, table-driven.
import { describe, expect, it } from 'vitest';
import { fingerprint, isPinned, keyToPin, knownHostsName, parseKeyscan, pinInKnownHosts, sameFingerprint } from '../../src/platform/ssh/known-hosts.js';
import { MAX_CONTROL_PATH, closeMasterArgv, controlPath, sshArgv, sshPathValue } from '../../src/platform/ssh/ssh-argv.js';
import { classifySshFailure, sshFailureFix } from '../../src/platform/ssh/ssh-failure.js';
import type { HostConfig } from '../../src/shared/host-config.js';

const places = { runDir: '/home/u/.larkmux/run', knownHosts: '/home/u/.larkmux/known_hosts', fallbackRunDir: '/tmp/lmx-ssh-0-abc' };
const gpu: HostConfig = { name: 'gpu1', ssh: 'me@gpu1.lan' };

describe('sshArgv', () => {
  const pairs = (argv: string[]) => argv.flatMap((a, i) => (argv[i - 1] === '-o' ? [a] : []));
  it.each([
    ['defaults', gpu, [], ['-T', '--', 'me@gpu1.lan', 'true']],
    ['a port', { ...gpu, port: 2222 }, ['-p', '2222'], ['-T', '--', 'me@gpu1.lan', 'true']],
    ['an identity file', { ...gpu, identityFile: '/k/id_%h' }, ['IdentityFile="/k/id_%%h"', 'IdentitiesOnly=yes'], ['-T', '--', 'me@gpu1.lan', 'true']],
  ])('%s', (_what, host, extra, tail) => {
    const argv = sshArgv(host, places, ['true'], { persist: 'no', connectTimeoutS: 7 });
    expect(argv.slice(-tail.length)).toEqual(tail);
    const opts = pairs(argv);
    for (const o of ['BatchMode=yes', 'StrictHostKeyChecking=yes', 'UserKnownHostsFile="/home/u/.larkmux/known_hosts"', 'GlobalKnownHostsFile=/dev/null', 'ForwardAgent=no', 'ForwardX11=no', 'PasswordAuthentication=no', 'KbdInteractiveAuthentication=no', 'ServerAliveInterval=15', 'ServerAliveCountMax=3', 'ControlMaster=auto', 'ControlPersist=no', 'ConnectTimeout=7']) expect(opts).toContain(o);
    for (const e of extra) expect(argv).toContain(e);
    if (!host.identityFile) expect(opts.some((o) => o.startsWith('Identit'))).toBe(false);
  });

  it.each([
    ['a short home: under run/', '/home/u/.larkmux/run', '/home/u/.larkmux/run/ssh-'],
    ['a deep home: the short fallback folder', `/home/u/${'deep/'.repeat(20)}run`, '/tmp/lmx-ssh-0-abc/ssh-'],
  ])('control socket for %s', (_what, runDir, prefix) => {
    const p = controlPath(gpu, { ...places, runDir });
    expect(p.startsWith(prefix)).toBe(true);
    expect(Buffer.byteLength(p)).toBeLessThanOrEqual(MAX_CONTROL_PATH);
  });

  it('gives each host its own socket', () => {
    expect(controlPath(gpu, places)).not.toBe(controlPath({ ...gpu, port: 2222 }, places));
    expect(controlPath(gpu, places)).toBe(controlPath({ ...gpu }, places));
  });

  it('ends the master through the same socket, sending nothing else', () => {
    expect(closeMasterArgv(gpu, places)).toEqual(['-o', `ControlPath="${controlPath(gpu, places)}"`, '-O', 'exit', '--', 'me@gpu1.lan']);
  });

  it.each([
    ['/a b/c', '"/a b/c"'],
    ['/x/100%', '"/x/100%%"'],
  ])('path value %s', (path, want) => expect(sshPathValue(path)).toBe(want));
  it('refuses a path ssh cannot take', () => expect(() => sshPathValue('/a"b')).toThrow(/quote/));
});

describe('classifySshFailure', () => {
  it.each([
    ['remote exit', 1, 'anything', false, null],
    ['success', 0, '', false, null],
    ['our deadline', null, '', true, 'unknown'],
    ['changed key', 255, '@@@\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\nHost key verification failed.\n', false, 'host-key-changed'],
    ['changed key (short form)', 255, 'Host key for [h]:22 has changed and you have requested strict checking.\n', false, 'host-key-changed'],
    ['unknown key', 255, 'No ED25519 host key is known for [127.0.0.1]:4000 and you have requested strict checking.\r\nHost key verification failed.\r\n', false, 'host-key-unknown'],
    ['auth refused', 255, 'me@h: Permission denied (publickey).\r\n', false, 'auth-refused'],
    ['refused port', 255, 'ssh: connect to host 127.0.0.1 port 4000: Connection refused\r\n', false, 'unreachable'],
    ['no route', 255, 'ssh: connect to host 10.0.0.9 port 22: No route to host\r\n', false, 'unreachable'],
    ['no such name', 255, 'ssh: Could not resolve hostname nope: Name or service not known\r\n', false, 'unreachable'],
    ['connect timeout', 255, 'ssh: connect to host 10.0.0.9 port 22: Connection timed out\r\n', false, 'unknown'],
    ['banner timeout', 255, 'Connection timed out during banner exchange\r\n', false, 'unknown'],
    ['closed', 255, 'Connection closed by 10.0.0.9 port 22\r\n', false, 'unknown'],
  ])('%s', (_what, code, stderr, timedOut, kind) => {
    const f = classifySshFailure(code, stderr, timedOut);
    expect(f?.kind ?? null).toBe(kind);
  });

  it('names the re-pin command for a changed key and never echoes what ssh printed', () => {
    const f = classifySshFailure(255, 'WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED! secret-ish text')!;
    expect(sshFailureFix(f, 'larkmux', 'gpu1', 'me@gpu1', 2222)).toContain('`larkmux hosts add gpu1 me@gpu1 --port 2222`');
    expect(f.detail).not.toContain('secret-ish');
  });
});

describe('known_hosts', () => {
  const ed = { type: 'ssh-ed25519', blob: 'AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl' };
  const rsa = { type: 'ssh-rsa', blob: 'AAAAB3NzaC1yc2EAAAADAQABAAABAQ' };
  it.each([
    ['h', undefined, 'h'],
    ['h', 22, 'h'],
    ['127.0.0.1', 2222, '[127.0.0.1]:2222'],
  ])('names %s port %s as %s', (host, port, want) => expect(knownHostsName(host, port)).toBe(want));

  it('reads ssh-keyscan output and prefers ed25519', () => {
    const keys = parseKeyscan(`# h:22 SSH-2.0-OpenSSH_9.2\nh ${rsa.type} ${rsa.blob}\nh ${ed.type} ${ed.blob}\n`);
    expect(keys).toHaveLength(2);
    expect(keyToPin(keys)).toEqual(ed);
    expect(keyToPin([])).toBeUndefined();
  });

  it('fingerprints as ssh-keygen -l does', () => {
    expect(fingerprint(ed)).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(sameFingerprint(fingerprint(ed), fingerprint(ed))).toBe(true);
    expect(sameFingerprint(fingerprint(ed).slice(7), fingerprint(ed))).toBe(true);
    expect(sameFingerprint('', fingerprint(ed))).toBe(false);
    expect(sameFingerprint('SHA256:x', fingerprint(ed))).toBe(false);
  });

  it('pins one key per host, replacing its old lines and keeping the others', () => {
    const before = `other ${rsa.type} ${rsa.blob}\n[h]:2222 ${rsa.type} ${rsa.blob}\n[h]:2222,alias ${rsa.type} ${rsa.blob}\n`;
    const after = pinInKnownHosts(before, '[h]:2222', ed);
    expect(after).toBe(`other ${rsa.type} ${rsa.blob}\n[h]:2222 ${ed.type} ${ed.blob}\n`);
    expect(isPinned(after, '[h]:2222')).toBe(true);
    expect(isPinned(after, 'h')).toBe(false);
  });
});
