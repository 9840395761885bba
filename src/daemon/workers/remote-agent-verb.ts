// One short command of the bundle's host agent on a host (`node <bundle>/host-agent.js <verb>`), over the host's
// ControlMaster: the remote command line holds only the bundle's path and the verb, everything else goes on stdin, and
// the agent answers with one line of JSON, checked against the verb's zod schema. The one-shot verbs with one
// answer (put, changes, adopt) go through here, so a missing bundle is handled once: no answer from the agent means
// the bundle folder is gone from the host, and it is placed again on the next command. (`get` streams a file's bytes
// back on a channel of its own: remote-fetch.ts.)
import type { z } from 'zod';
import { runOverSsh } from '../../platform/ssh/ssh-run.js';
import { quoteShellArg } from '../../shared/shell-quote.js';
import type { RemoteHost } from './remote-host.js';

/** What goes on the agent's stdin; a function gets the bundle's folder on the host (the adopt request names its home). */
export type AgentVerbInput = string | Uint8Array | ((bundleDir: string) => string | Uint8Array);

export type AgentVerbAnswer<T> = { ok: true; answer: T } | { ok: false; error: string };

export async function runAgentVerb<T>(
  host: RemoteHost, verb: string, stdin: AgentVerbInput, schema: z.ZodType<T>, limits: { timeoutMs: number; stdoutChars?: number },
): Promise<AgentVerbAnswer<T>> {
  const dir = await host.bundleDir();
  if (!dir.ok) return { ok: false, error: dir.detail };
  const { host: cfg, places, env } = host.ssh;
  const remote = ['exec', 'node', quoteShellArg(`${dir.dir}/host-agent.js`), verb];
  const input = typeof stdin === 'function' ? stdin(dir.dir) : stdin;
  const res = await runOverSsh(cfg, places, remote, { stdin: input, ...limits, ...(env ? { env } : {}) });
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
