// Issue 31 item 12: who holds the web port and which setting to change, as pure functions.
import { describe, expect, it } from 'vitest';
import { listeningInodes } from '../../src/platform/port-holder.js';
import { t } from '../../src/shared/i18n.js';
import { FREE_PORT_FIX, describeHolder, webPortProblem } from '../../src/shared/web-port-problem.js';

// Copied from a real /proc/net/tcp (header and spacing as the kernel writes them): 7680 = 0x1E00.
const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1E00 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4242001 1 0000000000000000 100 0 0 10 0
   1: 0100007F:1E00 0100007F:A2C4 01 00000000:00000000 00:00000000 00000000  1000        0 4242002 1 0000000000000000 20 4 30 10 -1
   2: 00000000:1E01 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4242003 1 0000000000000000 100 0 0 10 0
   3: 0100007F:A2C4 0100007F:1E00 06 00000000:00000000 03:00000A3F 00000000     0        0 0 3 0000000000000000
`;
const TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000000000000:1E00 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 5151 1 0000000000000000 100 0 0 10 0
`;

describe('listening sockets in /proc/net/tcp', () => {
  it.each<[string, string, number, string[]]>([
    ['the listener on 7680, not its connections', TCP, 7680, ['4242001']],
    ['another port', TCP, 7681, ['4242003']],
    ['a port nobody listens on', TCP, 9999, []],
    ['IPv6', TCP6, 7680, ['5151']],
    ['an empty table', '', 7680, []],
  ])('%s', (_name, table, port, want) => {
    expect(listeningInodes(table, port)).toEqual(want);
  });
});

describe('the holder and the setting to change', () => {
  it.each<[string, Parameters<typeof describeHolder>[0], string]>([
    ['a program', { pid: 4242, command: 'python3 -m http.server 7680' }, 'pid 4242 (python3 -m http.server 7680)'],
    ['another larkmux home', { pid: 77, command: '/usr/bin/node /srv/larkmux/dist/daemon/main.js' }, 'another larkmux daemon, pid 77 (/usr/bin/node /srv/larkmux/dist/daemon/main.js); a second LARKMUX_HOME?'],
    ['larkmux from source', { pid: 78, command: 'node --import tsx /src/larkmux/src/daemon/main.ts' }, 'another larkmux daemon, pid 78 (node --import tsx /src/larkmux/src/daemon/main.ts); a second LARKMUX_HOME?'],
    ['no command line', { pid: 9, command: '' }, 'pid 9'],
    ['nobody visible', null, 'another program (this user cannot see which: it may belong to another user)'],
  ])('%s', (_name, holder, want) => {
    expect(describeHolder(holder)).toBe(want);
  });

  it.each<[string, string, string, number, string]>([
    ['taken', 'listen EADDRINUSE: address already in use 127.0.0.1:7680', '127.0.0.1', 7680,
      'web terminal off: port 7680 on 127.0.0.1 is already in use by pid 1 (x); set web.port in config.json to a free port (0 = any free port), or stop that program'],
    ['privileged', 'listen EACCES: permission denied 0.0.0.0:80', '0.0.0.0', 80,
      'web terminal off: not allowed to listen on 0.0.0.0:80 (ports below 1024 need privileges); set web.port in config.json to 1024 or above'],
    ['not our address', 'listen EADDRNOTAVAIL: address not available 10.9.9.9:7680', '10.9.9.9', 7680,
      'web terminal off: 10.9.9.9 is not an address of this machine; set web.host in config.json (127.0.0.1 for this machine only)'],
    ['anything else', 'listen EINVAL: weird', '::1', 7680, 'web terminal off: cannot listen on [::1]:7680 (listen EINVAL: weird); check web.host and web.port in config.json'],
  ])('%s', (_name, message, host, port, want) => {
    expect(webPortProblem({ message }, host, port, { pid: 1, command: 'x' })).toBe(want);
  });
});

describe('the web port fix doctor prints', () => {
  // The catalogue writes FREE_PORT_FIX out (so that Chinese can say all of it): the English must not drift from it.
  it('begins with FREE_PORT_FIX in English', () => expect(t('en', 'doctor.web.fix', { cmd: 'larkmux' })).toBe(`${FREE_PORT_FIX}, or stop the program that holds it; then run \`larkmux restart\``));
});
