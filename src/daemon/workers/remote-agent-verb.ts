// One short command of the bundle's host agent on a host (`node <bundle>/host-agent.js <verb>`), over the host's
// ControlMaster: the remote command line holds only the bundle's path and the verb, everything else goes on stdin, and
// the agent answers with one line of JSON, checked against the verb's zod schema.
import type { z } from 'zod';
import { runOverSsh } from '../../platform/ssh/ssh-run.js';
import { quoteShellArg } from '../../shared/shell-quote.js';
import type { RemoteHost } from './remote-host.js';

export type AgentVerbAnswer<T> = { ok: true; answer: T } | { ok: false; error: string };

export async function runAgentVerb<T>(
  host: RemoteHost, verb: string, stdin: string | Uint8Array, schema: z.ZodType<T>, limits: { timeoutMs: number; stdoutChars?: number },
): Promise<AgentVerbAnswer<T>> {
  const dir = await host.bundleDir();
  if (!dir.ok) return { ok: false, error: dir.detail };
  const { host: cfg, places, env } = host.ssh;
  const remote = ['exec', 'node', quoteShellArg(`${dir.dir}/host-agent.js`), verb];
  const res = await runOverSsh(cfg, places, remote, { stdin, ...limits, ...(env ? { env } : {}) });
  if (res.failure) return { ok: false, error: res.failure.detail };
  const line = res.stdout.trim().split('\n').pop() ?? '';
  try {
    const parsed = schema.safeParse(JSON.parse(line));
    if (parsed.success) return { ok: true, answer: parsed.data };
  } catch {
    // not JSON: the agent did not run (below)
  }
  // No answer from the agent: most likely its bundle is gone from the host; placed again on the next command.
  host.forgetBundleDir();
  return { ok: false, error: `${verb} did not run on ${cfg.name} (exit ${res.code})` };
}
