// Which Host names the web port answers to (DNS rebinding): a pure table of headers and configurations.
import { describe, expect, it } from 'vitest';
import { hostNameOf, hostServed, servedHostNames, type ServedHostsInput } from '../../src/daemon/web/web-host-check.js';

const LOOPBACK_ONLY: ServedHostsInput = { bindHost: '127.0.0.1' };

describe('hostServed', () => {
  it.each<[string, string | undefined, ServedHostsInput, boolean]>([
    ['localhost with the port', 'localhost:7680', LOOPBACK_ONLY, true],
    ['localhost without a port', 'localhost', LOOPBACK_ONLY, true],
    ['127.0.0.1 with the port', '127.0.0.1:7680', LOOPBACK_ONLY, true],
    ['[::1] with the port', '[::1]:7680', LOOPBACK_ONLY, true],
    ['[::1] without a port', '[::1]', LOOPBACK_ONLY, true],
    ['upper case and a trailing dot', 'LocalHost.:7680', LOOPBACK_ONLY, true],
    ['a rebinding name', 'evil.example:7680', LOOPBACK_ONLY, false],
    ['a rebinding name without a port', 'evil.example', LOOPBACK_ONLY, false],
    ['a name ending like localhost', 'evil.localhost.example', LOOPBACK_ONLY, false],
    ['localhost as a subdomain', 'localhost.evil.example', LOOPBACK_ONLY, false],
    ['userinfo trick', 'evil@127.0.0.1', LOOPBACK_ONLY, false],
    ['a path in the header', '127.0.0.1/x', LOOPBACK_ONLY, false],
    ['no Host header', undefined, LOOPBACK_ONLY, false],
    ['an empty Host header', '', LOOPBACK_ONLY, false],
    ['another loopback address not bound', '127.0.0.2:7680', LOOPBACK_ONLY, false],
    ['publicUrl host', 'box.example.com', { bindHost: '127.0.0.1', publicUrl: 'https://box.example.com/' }, true],
    ['publicUrl host with a port', 'box.example.com:8443', { bindHost: '127.0.0.1', publicUrl: 'https://box.example.com:8443' }, true],
    ['another name under publicUrl', 'x.box.example.com', { bindHost: '127.0.0.1', publicUrl: 'https://box.example.com/' }, false],
    ['an allowed host', 'larkmux.lan:7680', { bindHost: '127.0.0.1', allowedHosts: ['larkmux.lan'] }, true],
    ['an allowed host written in capitals', 'larkmux.lan', { bindHost: '127.0.0.1', allowedHosts: ['LarkMux.LAN'] }, true],
    ['an allowed IPv6 address', '[fd00::5]:7680', { bindHost: '127.0.0.1', allowedHosts: ['[fd00::5]'] }, true],
    ['a specific bind address', '10.0.0.5:7680', { bindHost: '10.0.0.5' }, true],
    ['a specific IPv6 bind address', '[fd00::7]:7680', { bindHost: 'fd00::7' }, true],
    ['an interface address under a wildcard bind', '192.168.1.20:7680', { bindHost: '0.0.0.0', interfaceAddresses: ['192.168.1.20'] }, true],
    ['an interface address under a specific bind', '192.168.1.20:7680', { bindHost: '127.0.0.1', interfaceAddresses: ['192.168.1.20'] }, false],
    ['a wildcard names no host itself', '0.0.0.0:7680', { bindHost: '0.0.0.0' }, false],
  ])('%s: %j → %s', (_what, header, input, want) => {
    expect(hostServed(header, servedHostNames(input))).toBe(want);
  });
});

describe('hostNameOf', () => {
  it.each<[string | undefined, string | null]>([
    ['Example.COM:80', 'example.com'],
    ['[::1]:7680', '::1'],
    ['127.0.0.1', '127.0.0.1'],
    ['a b', null],
    ['x:99999999', null],
    [':7680', null],
    [undefined, null],
  ])('%j → %j', (header, want) => {
    expect(hostNameOf(header)).toBe(want);
  });
});
