// larkmux's own known_hosts: pinning a host key, and the SHA256 fingerprint a person compares. Pure text functions.
import { createHash } from 'node:crypto';

export interface HostKey {
  /** ssh-ed25519, ecdsa-sha2-nistp256, ssh-rsa … */
  type: string;
  /** The base64 key blob. */
  blob: string;
}

/** The order keys are preferred in when a host offers several: the one pinned is the first it has. */
const PREFERRED = ['ssh-ed25519', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp521', 'rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'];

/** How known_hosts names a host: `host` on port 22, `[host]:port` otherwise. */
export function knownHostsName(host: string, port: number | undefined): string {
  return port && port !== 22 ? `[${host}]:${port}` : host;
}

/** The SHA256 fingerprint as `ssh-keygen -l` prints it: `SHA256:` and the unpadded base64 of the blob's hash. */
export function fingerprint(key: HostKey): string {
  return `SHA256:${createHash('sha256').update(Buffer.from(key.blob, 'base64')).digest('base64').replace(/=+$/, '')}`;
}

/** The keys in ssh-keyscan's output (`name type blob` lines; its `#` comments skipped). */
export function parseKeyscan(text: string): HostKey[] {
  const keys: HostKey[] = [];
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (!t || t.startsWith('#')) continue;
    const [, type, blob] = t.split(/\s+/);
    if (type && blob && /^[A-Za-z0-9+/]+=*$/.test(blob)) keys.push({ type, blob });
  }
  return keys;
}

/** The one key to pin: the most preferred type the host offers (its first key when none is known to us). */
export function keyToPin(keys: readonly HostKey[]): HostKey | undefined {
  const rank = (k: HostKey) => (PREFERRED.includes(k.type) ? PREFERRED.indexOf(k.type) : PREFERRED.length);
  return [...keys].sort((a, b) => rank(a) - rank(b))[0];
}

/** Whether `given` (as a person typed it) is the fingerprint `fp`: `SHA256:` prefix optional, padding ignored. */
export function sameFingerprint(given: string, fp: string): boolean {
  const norm = (s: string) => s.trim().replace(/^SHA256:/i, '').replace(/=+$/, '');
  return norm(given) !== '' && norm(given) === norm(fp);
}

/** known_hosts' text with every line for `name` replaced by the one pinned key (other hosts' lines kept as they are). */
export function pinInKnownHosts(text: string, name: string, key: HostKey): string {
  const kept = text.split('\n').filter((l) => l.trim() !== '' && !l.trim().split(/\s+/)[0]!.split(',').includes(name));
  return [...kept, `${name} ${key.type} ${key.blob}`].join('\n') + '\n';
}

/** Whether known_hosts' text has a line for `name`. */
export function isPinned(text: string, name: string): boolean {
  return text.split('\n').some((l) => l.trim() !== '' && !l.startsWith('#') && l.trim().split(/\s+/)[0]!.split(',').includes(name));
}
