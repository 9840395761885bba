// The `hosts` list of config.json (DESIGN §12): other machines larkmux reaches over the system's OpenSSH client.
import { z } from 'zod';

/** `local` is this machine, always there and never configured. */
export const LOCAL_HOST = 'local';

/** A host's name: short, lower case, safe in `host:dir`, file names and tmux names. */
export const HOST_NAME_RE = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * `user@host` as ssh takes it: a user name and a host name or IP address (IPv6 in brackets or bare). Neither part may
 * start with "-", so the target can never be read as an ssh option.
 */
export const SSH_TARGET_RE = /^[A-Za-z_][A-Za-z0-9._-]{0,63}@(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[?[0-9A-Fa-f:.]+\]?)$/;

export const HostNameSchema = z
  .string()
  .regex(HOST_NAME_RE, 'a short name: a lower-case letter, then up to 31 lower-case letters, digits or "-"')
  .refine((n) => n !== LOCAL_HOST, { message: '"local" is this machine and is always there; give the other host another name' });

export const HostConfigSchema = z.strictObject({
  name: HostNameSchema.describe('Short name of the host (gpu1, build-box); "local" is this machine and cannot be configured'),
  ssh: z.string().regex(SSH_TARGET_RE, 'user@host (a user name, "@", a host name or IP address)').describe('user@host larkmux connects to with the system ssh client'),
  port: z.number().int().min(1).max(65535).optional().describe('sshd port on the host (default 22)'),
  identityFile: z.string().min(1).optional().describe('Private key file for this host (then only this key is offered); default: ssh\'s own keys and agent'),
  workingDirs: z.array(z.string().min(1)).optional().describe('Roots on the host that sessions may work in; `larkmux hosts check` says which are missing'),
  maxLiveWorkers: z.number().int().min(1).max(1000).optional().describe('Worker processes kept alive on this host, for every bot\'s sessions placed there (default 30); a full host never holds up sessions elsewhere'),
  maxLiveClis: z.number().int().min(1).max(1000).optional().describe('CLIs kept running on this host, for every bot\'s sessions placed there (default 20)'),
});
export type HostConfig = z.infer<typeof HostConfigSchema>;

/** The list, with each name used once. */
export const HostsSchema = z
  .array(HostConfigSchema)
  .superRefine((hosts, ctx) => {
    const seen = new Set<string>();
    hosts.forEach((h, i) => {
      if (seen.has(h.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `the host name "${h.name}" is used twice; each host needs its own name` });
      seen.add(h.name);
    });
  })
  .default([])
  .describe('Other machines reached over OpenSSH (`larkmux hosts add|check|list`); `/cd host:dir` places a session there, and its CLI runs there');
