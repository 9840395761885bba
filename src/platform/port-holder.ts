// Who holds a TCP port we could not listen on. Linux only: it reads /proc/net/tcp{,6} for the listening socket's
// inode and /proc/<pid>/fd for the process that has it open (only processes this user may inspect). Elsewhere, or
// when the holder belongs to another user, the answer is null and the message says "another program".
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import type { PortHolder } from '../shared/web-port-problem.js';

/** /proc/net/tcp's state column for a listening socket. */
const TCP_LISTEN = '0A';
/** A command line longer than this is cut: the message names a program, it does not print its arguments. */
const COMMAND_MAX_CHARS = 100;

/** The inodes of the sockets listening on `port` in one /proc/net/tcp or tcp6 table (pure). */
export function listeningInodes(table: string, port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return table
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length > 9 && cols[1]!.endsWith(`:${hexPort}`) && cols[3] === TCP_LISTEN && cols[9] !== '0')
    .map((cols) => cols[9]!);
}

function readOr(path: string, fallback: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return fallback;
  }
}

/** The process listening on `port`, when this is Linux and that process is this user's; else null. */
export function findPortHolder(port: number): PortHolder | null {
  if (process.platform !== 'linux') return null;
  const inodes = new Set([...listeningInodes(readOr('/proc/net/tcp', ''), port), ...listeningInodes(readOr('/proc/net/tcp6', ''), port)]);
  if (!inodes.size) return null;
  const wanted = new Set([...inodes].map((i) => `socket:[${i}]`));
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // another user's process, or gone
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      if (wanted.has(target)) {
        const command = readOr(`/proc/${pid}/cmdline`, '').split('\0').filter(Boolean).join(' ');
        return { pid: Number(pid), command: command.length > COMMAND_MAX_CHARS ? `${command.slice(0, COMMAND_MAX_CHARS)}…` : command };
      }
    }
  }
  return null;
}

/** Whether `port` on `host` can be listened on right now (a listen and close, nothing served). */
export function probePort(host: string, port: number): Promise<{ free: true } | { free: false; message: string }> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (e) => resolve({ free: false, message: e.message }));
    server.listen(port, host, () => server.close(() => resolve({ free: true })));
  });
}
