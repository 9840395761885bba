// Puts the daemon's own worker bundle on a host, content-addressed: `<root>/bundles/<sha>/`, checked with `sha256sum`
// there on every connect, copied (one tar stream over the ControlMaster, into a temp folder, verified, then renamed)
// only when missing or damaged. The remote command lines hold only the root and the sha; the bytes go on stdin.
import { quoteShellArg } from '../../shared/shell-quote.js';
import type { HostConfig } from '../../shared/host-config.js';
import { MANIFEST_NAME, type BundleManifest } from '../bundle-manifest.js';
import { tarOf } from './bundle-tar.js';
import { runOverSsh } from './ssh-run.js';
import type { SshPlaces } from './ssh-argv.js';
import type { SshFailure } from './ssh-failure.js';

/** Where bundles live on a host when nothing else is said: relative to the login directory (the user's home). */
export const DEFAULT_REMOTE_ROOT = '.larkmux';

/** Exit codes of the remote scripts (anything else is the shell's or ssh's own). */
const REMOTE_EXIT = { absent: 3, damaged: 4, badCopy: 5 } as const;

export type RemoteBundleResult =
  | { ok: true; dir: string; how: 'reused' | 'copied' | 'replaced' }
  | { ok: false; detail: string; failure: SshFailure | null };

/** `sh -c '<script>'`, one line (a login shell of any kind passes a single-quoted line on unchanged). */
function shLine(lines: string[]): string[] {
  return ['sh', '-c', quoteShellArg(lines.join(' ; '))];
}

/** Prints the bundle's absolute folder and exits 0 when it is there and every file matches; 3 absent, 4 damaged. */
export function checkScript(root: string, sha: string): string[] {
  const dir = `${quoteShellArg(root)}/bundles/${sha}`;
  return shLine([
    `cd ${dir} 2>/dev/null || exit ${REMOTE_EXIT.absent}`,
    `sha256sum -c --quiet --strict ${MANIFEST_NAME} >/dev/null 2>&1 || exit ${REMOTE_EXIT.damaged}`,
    `set -- $(sha256sum ${MANIFEST_NAME})`,
    `[ "$1" = ${sha} ] || exit ${REMOTE_EXIT.damaged}`,
    'pwd',
  ]);
}

/**
 * Unpacks the tar on stdin into a temp folder, verifies it, and renames it into place (a damaged copy moved aside; a
 * sound one that appeared meanwhile kept, the temp folder dropped).
 */
export function copyScript(root: string, sha: string): string[] {
  const bad = (why: string) => `{ echo ${quoteShellArg(why)} >&2 ; exit ${REMOTE_EXIT.badCopy} ; }`;
  return shLine([
    'set -e',
    'umask 077',
    `mkdir -p ${quoteShellArg(root)}/bundles`,
    `cd ${quoteShellArg(root)}/bundles`,
    'tmp=$(mktemp -d .tmp-XXXXXXXX)',
    `trap 'rm -rf "$tmp"' EXIT`,
    'tar -xf - -C "$tmp"',
    `(cd "$tmp" && sha256sum -c --quiet --strict ${MANIFEST_NAME} >/dev/null 2>&1) || ${bad('the bundle arrived damaged')}`,
    `set -- $(sha256sum "$tmp/${MANIFEST_NAME}")`,
    `[ "$1" = ${sha} ] || ${bad('the bundle manifest does not have the expected sha256')}`,
    // Another copy got there first and its folder verifies (two placements raced: a daemon's link and a one-shot
    // verb, or two daemons): keep it. Moving it aside would pull files from under a process loading from it.
    `if (cd ${sha} 2>/dev/null && sha256sum -c --quiet --strict ${MANIFEST_NAME} >/dev/null 2>&1 && set -- $(sha256sum ${MANIFEST_NAME}) && [ "$1" = ${sha} ]) ; then rm -rf "$tmp" ; trap - EXIT ; cd ${sha} ; pwd ; exit 0 ; fi`,
    `old=.old-${sha}-$$`,
    `if [ -e ${sha} ]; then mv ${sha} "$old"; fi`,
    `mv "$tmp" ${sha}`,
    'trap - EXIT',
    'rm -rf "$old"',
    `cd ${sha}`,
    'pwd',
  ]);
}

/** Makes sure `bundle` is on `host` under `root`, verified; copies it only when it is missing or damaged there. */
export async function ensureRemoteBundle(host: HostConfig, places: SshPlaces, bundle: BundleManifest, root: string = DEFAULT_REMOTE_ROOT, env?: NodeJS.ProcessEnv): Promise<RemoteBundleResult> {
  const check = await runOverSsh(host, places, checkScript(root, bundle.sha), { env });
  if (check.failure) return { ok: false, detail: check.failure.detail, failure: check.failure };
  if (check.code === 0) return { ok: true, dir: check.stdout.trim(), how: 'reused' };
  if (check.code !== REMOTE_EXIT.absent && check.code !== REMOTE_EXIT.damaged) {
    return { ok: false, detail: `checking the bundle on ${host.name} failed (exit ${check.code}): ${check.stderr.trim().slice(0, 300)}`, failure: null };
  }
  const files = [...bundle.files, { name: MANIFEST_NAME, bytes: Buffer.from(bundle.text) }];
  const copy = await runOverSsh(host, places, copyScript(root, bundle.sha), { stdin: tarOf(files), timeoutMs: 120_000, env });
  if (copy.failure) return { ok: false, detail: copy.failure.detail, failure: copy.failure };
  if (copy.code !== 0) return { ok: false, detail: `copying the bundle to ${host.name} failed (exit ${copy.code}): ${copy.stderr.trim().slice(0, 300)}`, failure: null };
  return { ok: true, dir: copy.stdout.trim(), how: check.code === REMOTE_EXIT.damaged ? 'replaced' : 'copied' };
}

/** larkmux's folder on the host that holds a placed bundle (`<home>/bundles/<sha>`): the workers' LARKMUX_HOME there. */
export function hostHomeOfBundle(dir: string): string {
  return dir.replace(/\/bundles\/[0-9a-f]{64}$/, '');
}
