// Puts one host into config.json's raw JSON (everything else kept): a new name is appended, a known name updated.
import type { RawConfig } from '../setup/config-writer.js';

export interface AddedHost {
  name: string;
  ssh: string;
  port?: number;
  identityFile?: string;
}

export type MergeHostResult = { ok: true; raw: RawConfig; replaced: boolean } | { ok: false; message: string };

export function mergeHost(raw: RawConfig, host: AddedHost): MergeHostResult {
  if (raw.hosts !== undefined && !Array.isArray(raw.hosts)) return { ok: false, message: '"hosts" in config.json is not a list; fix it by hand first' };
  const hosts = Array.isArray(raw.hosts) ? [...(raw.hosts as unknown[])] : [];
  const at = hosts.findIndex((h) => !!h && typeof h === 'object' && (h as Record<string, unknown>).name === host.name);
  const fields: Record<string, unknown> = { name: host.name, ssh: host.ssh };
  if (host.port !== undefined) fields.port = host.port;
  if (host.identityFile !== undefined) fields.identityFile = host.identityFile;
  if (at >= 0) {
    // Updated in place: its other settings (workingDirs, caps) stay; port and key are what this command was given.
    const { port: _port, identityFile: _identity, ...rest } = hosts[at] as Record<string, unknown>;
    hosts[at] = { ...rest, ...fields };
  } else hosts.push(fields);
  return { ok: true, raw: { ...raw, hosts }, replaced: at >= 0 };
}
