// Starting a fake model server for a CLI: in-process, or as a child holding a loopback-only network namespace.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startFakeAnthropic } from './anthropic.js';
import type { FakeModelOptions, FakeModelServer, LoggedRequest } from './common.js';
import { startFakeGemini } from './gemini.js';
import { startFakeOpenAI } from './openai.js';

export type { FakeModelOptions, FakeModelServer, LoggedRequest } from './common.js';
export { startFakeAnthropic, startFakeGemini, startFakeOpenAI };

export type FakeKind = 'anthropic' | 'openai' | 'gemini';

export interface IsolatedFakeServer extends FakeModelServer {
  /** pid of the process that owns the network namespace (join it with `nsenter --net=/proc/<pid>/ns/net`); null = no namespace. */
  netnsPid: number | null;
}

const REPO_ROOT = join(import.meta.dirname, '../../..');
/** Starting node + tsx takes ~1 s here; 20 s means something is wrong. */
const START_TIMEOUT_MS = 20_000;

export function startFakeModel(kind: FakeKind, opts: FakeModelOptions = {}): Promise<FakeModelServer> {
  return kind === 'anthropic' ? startFakeAnthropic(opts) : kind === 'openai' ? startFakeOpenAI(opts) : startFakeGemini(opts);
}

/** Whether `unshare -n` works here (root, or user namespaces enabled). Cached. */
let netnsUsable: boolean | null = null;
export async function canUseNetns(): Promise<boolean> {
  if (netnsUsable !== null) return netnsUsable;
  netnsUsable = await new Promise<boolean>((resolve) => {
    const p = spawn('unshare', ['-n', 'sh', '-c', 'ip link set lo up'], { stdio: 'ignore' });
    p.on('error', () => resolve(false));
    p.on('exit', (code) => resolve(code === 0));
  });
  return netnsUsable;
}

/**
 * Runs the fake as a child process. With `isolate` and a usable `unshare -n`, the child lives in a fresh network
 * namespace with only loopback up; start tmux with `nsenter --net=/proc/<netnsPid>/ns/net` so the CLI shares it.
 */
export async function startFakeModelProcess(kind: FakeKind, opts: FakeModelOptions & { isolate?: boolean } = {}): Promise<IsolatedFakeServer> {
  const serveArgs = ['--import', 'tsx', join(import.meta.dirname, 'serve.ts'), '--kind', kind, '--port', String(opts.port ?? 0)];
  if (opts.replyDelayMs !== undefined) serveArgs.push('--reply-delay-ms', String(opts.replyDelayMs));
  if (opts.slowDelayMs !== undefined) serveArgs.push('--slow-delay-ms', String(opts.slowDelayMs));
  const isolate = (opts.isolate ?? true) && (await canUseNetns());
  const child: ChildProcess = isolate
    ? spawn('unshare', ['-n', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, ...serveArgs], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, serveArgs, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const requests: LoggedRequest[] = [];
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fake ${kind} did not start: ${stderr}`)), START_TIMEOUT_MS);
    child.on('exit', (code) => reject(new Error(`fake ${kind} exited (${code}): ${stderr}`)));
    lines.on('line', (line) => {
      const m = /^FAKE_LISTENING port=(\d+)/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      } else if (line.startsWith('REQ ')) {
        requests.push(JSON.parse(line.slice(4)) as LoggedRequest);
      }
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    netnsPid: isolate ? child.pid ?? null : null,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
