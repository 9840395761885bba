// Files `larkmux send` names in a pane on another host: each is read there by the bundle's agent run as `get`
// (worker/host/host-fetch.ts) on a channel of its own over the host's ControlMaster, so a large file never stalls the
// sessions' frames on the agent's channel. The remote command line holds only the bundle's path and the verb; the path
// and the rules go on stdin. What arrives is checked against the sha256 the host computed before anything is posted.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Logger } from '../../platform/log.js';
import type { FileReader, LocalRead } from '../../platform/local-file-read.js';
import { sshArgv, controlPath } from '../../platform/ssh/ssh-argv.js';
import { classifySshFailure } from '../../platform/ssh/ssh-failure.js';
import { ensureSocketFolder } from '../../platform/ssh/ssh-run.js';
import { quoteShellArg } from '../../shared/shell-quote.js';
import { HOST_FETCH_VERB, splitFetched, type HostFetchRequest } from '../../shared/host-fetch-protocol.js';
import type { RemoteHost } from './remote-host.js';

export const REMOTE_FETCH_TIMING = {
  /** One file at the latest: 30 MB (the largest Feishu file) over a slow link of ~2 Mbit/s fits in it. */
  timeoutMs: 5 * 60_000,
} as const;

const failed = (detail: string): LocalRead => ({ ok: false, reason: 'failed', detail });

/** Runs `get` on the host with `request` on stdin; the host's read, or why there is none. */
export async function fetchFromHost(host: RemoteHost, request: HostFetchRequest, signal?: AbortSignal): Promise<LocalRead> {
  const dir = await host.bundleDir();
  if (!dir.ok) return failed(dir.detail);
  const { host: cfg, places, env } = host.ssh;
  try {
    ensureSocketFolder(join(controlPath(cfg, places), '..'));
  } catch (err) {
    return failed((err as Error).message);
  }
  const remote = ['exec', 'node', quoteShellArg(`${dir.dir}/host-agent.js`), HOST_FETCH_VERB];
  return new Promise<LocalRead>((resolve) => {
    const child = spawn('ssh', sshArgv(cfg, places, remote), { stdio: ['pipe', 'pipe', 'pipe'], env: env ?? process.env });
    const parts: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let verdict: LocalRead | null = null;
    const stop = (r: LocalRead) => {
      verdict ??= r;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop({ ok: false, reason: 'too_slow' }), REMOTE_FETCH_TIMING.timeoutMs);
    const onAbort = () => stop(failed('not sent: the request was given up'));
    signal?.addEventListener('abort', onAbort, { once: true });
    // How long the output may grow: unknown until the answer line says it (then judged by size alone, not re-read).
    let total: number | undefined;
    child.stdout.on('data', (d: Buffer) => {
      parts.push(d);
      size += d.length;
      // Stopped as soon as the output can no longer be an answer: a host never makes the daemon hold more than asked.
      if (total === undefined) {
        const so = splitFetched(Buffer.concat(parts, size), request.limit, false);
        if (so.state === 'bad') stop(failed(`the host's answer was not understood (${so.error})`));
        else if (so.state === 'partial') total = so.total;
      }
      if (total !== undefined && size > total) stop(failed("the host's answer was not understood (more bytes than announced)"));
    });
    child.stderr.on('data', (d: Buffer) => void (stderr.length < 8192 && (stderr += d.toString('utf8'))));
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify(request) + '\n');
    const done = (code: number | null) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(verdict ?? judge(host, Buffer.concat(parts, size), request.limit, code, stderr));
    };
    child.on('error', () => done(127));
    child.on('close', (code) => done(code));
  });
}

/** The host's read from its whole output, what arrived checked against its sha256; `bad` when it is no answer. */
export function readFetched(out: Buffer, limit: number): { read: LocalRead } | { bad: string } {
  const so = splitFetched(out, limit, true);
  if (so.state === 'refused') return { read: { ok: false, ...so.answer.refusal } };
  if (so.state === 'bad' || so.state === 'partial') return { bad: so.state === 'bad' ? so.error : 'cut short' };
  const sha = createHash('sha256').update(so.data).digest('hex');
  if (sha !== so.answer.sha256) return { read: failed('the file arrived damaged (sha256 differs)') };
  // Larger than asked for: only that is known (limit + 1 bytes, as a local read would have), so the post refuses it.
  return { read: so.answer.larger ? { ok: true, data: so.data, size: limit + 1 } : { ok: true, data: so.data } };
}

function judge(host: RemoteHost, out: Buffer, limit: number, code: number | null, stderr: string): LocalRead {
  const r = readFetched(out, limit);
  if ('read' in r) return r.read;
  const ssh = classifySshFailure(code, stderr);
  if (ssh) return failed(ssh.detail);
  // No answer from the agent: most likely its bundle is gone from the host; placed again on the next read.
  if (out.length === 0) host.forgetBundleDir();
  return failed(`the file could not be read on ${host.ssh.host.name} (${out.length === 0 ? `exit ${code}` : r.bad})`);
}

/** Where a pane on a host sends files from: read there, judged there by the local rules, larkmux's folder there kept out. */
export interface HostFiles {
  read: FileReader;
  home: string | null;
}

/** A configured host's files (undefined for a host that is not: its panes send nothing). */
export function hostFiles(host: RemoteHost | undefined, log: Logger): HostFiles | undefined {
  if (!host) return undefined;
  const read: FileReader = async (path, limit, access, signal) => {
    const r = await fetchFromHost(host, { path, limit, roots: [...access.roots], home: access.home }, signal);
    // Sizes and reasons only: never the path's content, and the path stays out too (it may name a user's secret).
    log.info({ host: host.ssh.host.name, ...(r.ok ? { bytes: r.data.length, ...(r.size ? { larger: true } : {}) } : { refused: r.reason }) }, 'file read on a host for larkmux send');
    return r;
  };
  return { read, home: host.homeOnHost };
}
