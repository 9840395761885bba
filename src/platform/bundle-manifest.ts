// The worker bundle's identity: SHA256SUMS (one `sha256  name` line per file, as `sha256sum` prints and checks it) and
// the bundle's sha, the sha256 of that text. A host verifies a copy with `sha256sum -c` alone: no larkmux code needed.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The manifest's file name inside a bundle folder (never listed in itself). */
export const MANIFEST_NAME = 'SHA256SUMS';

/** A file name `sha256sum -c` reads back unchanged and a tar header holds: no blanks, slashes, backslashes. */
const PLAIN_NAME = /^[A-Za-z0-9._-]{1,99}$/;

export interface BundleFile {
  name: string;
  bytes: Buffer;
}

export interface BundleManifest {
  files: BundleFile[];
  /** SHA256SUMS' text. */
  text: string;
  /** sha256 of `text`: the bundle's name on a host. */
  sha: string;
}

export const sha256Hex = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** The manifest of `files` (sorted by name so the same bytes always give the same sha). */
export function manifestOf(files: readonly BundleFile[]): BundleManifest {
  const sorted = [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const f of sorted) if (!PLAIN_NAME.test(f.name)) throw new Error(`bundle file name ${JSON.stringify(f.name)} is not a plain file name`);
  const text = sorted.map((f) => `${sha256Hex(f.bytes)}  ${f.name}\n`).join('');
  return { files: sorted, text, sha: sha256Hex(text) };
}

/** The manifest of every regular file directly in `dir` (the manifest itself left out). */
export function readBundle(dir: string): BundleManifest {
  const names = readdirSync(dir).filter((n) => n !== MANIFEST_NAME && statSync(join(dir, n)).isFile());
  return manifestOf(names.map((name) => ({ name, bytes: readFileSync(join(dir, name)) })));
}
