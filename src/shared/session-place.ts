// Where a session runs (DESIGN §12): `host:dir` as a person writes it after /cd or picks it on the project picker,
// read into a host and an absolute folder there, confined to the host's `workingDirs` roots. Pure: nothing here looks
// at a file system, so a folder on another host is never checked against the daemon's own disk.
import { HOST_NAME_RE, LOCAL_HOST } from './host-config.js';

/** A host as placing needs it: its name and the roots its sessions may work in (none given: anywhere). */
export interface PlaceHost {
  name: string;
  workingDirs?: readonly string[];
}

export interface PlaceContext {
  /** The configured hosts (`local` is always there and never listed). */
  hosts: readonly PlaceHost[];
  /** The bot's default host: a bare folder goes there. */
  defaultHost: string;
  /** This machine's home, for `~` on `local`. */
  localHome: string;
  /** Where a relative folder starts, per host: the session's folder when it is on that host, else the bot's folder. */
  baseFor(host: string): string | undefined;
}

export interface Place {
  host: string;
  dir: string;
}

export type PlaceError =
  | { code: 'unknown_host'; host: string; known: string[] }
  | { code: 'drive_letter'; input: string }
  | { code: 'outside_roots'; host: string; dir: string; roots: string[] }
  | { code: 'needs_absolute'; host: string; input: string }
  | { code: 'empty' };

export type PlaceResult = ({ ok: true } & Place) | { ok: false; error: PlaceError };

/** `C:` or `C:\…` / `C:/…`: a Windows drive, which no host of larkmux has (they are Unix machines). */
const DRIVE_RE = /^[A-Za-z]:(?:[\\/]|$)/;

/**
 * Splits `host:dir`. Only a prefix that is a host name counts, so `/srv/a:b` and `./a:b` stay folders; a bare folder
 * has no host (the caller's default applies).
 */
export function splitPlace(input: string): { host?: string; dir: string } {
  const i = input.indexOf(':');
  if (i <= 0) return { dir: input };
  const head = input.slice(0, i);
  return HOST_NAME_RE.test(head) ? { host: head, dir: input.slice(i + 1) } : { dir: input };
}

/** `.` and `..` resolved and repeated slashes folded in an absolute POSIX path (as node's posix.normalize). */
export function normalizeAbsolute(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return '/' + out.join('/');
}

/** `dir` is `root` or inside it (both absolute and normalised). */
export function isWithin(dir: string, root: string): boolean {
  return root === '/' || dir === root || dir.startsWith(root.endsWith('/') ? root : root + '/');
}

/**
 * `dir` (absolute, normalised) is allowed by a host's `workingDirs`: any folder when none are given; a root that is
 * not absolute (`~/work` on another host) cannot be compared here, so it admits nothing, never everything.
 */
export function withinHostRoots(workingDirs: readonly string[] | undefined, dir: string): boolean {
  const given = workingDirs ?? [];
  return given.length === 0 || given.some((r) => r.startsWith('/') && isWithin(dir, normalizeAbsolute(r)));
}

/** The known hosts' names, `local` first, as an error lists them. */
export function knownHosts(ctx: Pick<PlaceContext, 'hosts'>): string[] {
  return [LOCAL_HOST, ...ctx.hosts.map((h) => h.name)];
}

/** Reads what a person wrote into a host and an absolute, normalised folder allowed there. */
export function parsePlace(raw: string, ctx: PlaceContext): PlaceResult {
  const input = raw.trim();
  if (!input) return { ok: false, error: { code: 'empty' } };
  const split = splitPlace(input);
  // A one-letter host may be configured; otherwise `c:/x` is someone's Windows habit, and is told so.
  if (DRIVE_RE.test(input) && !ctx.hosts.some((h) => h.name === split.host)) return { ok: false, error: { code: 'drive_letter', input } };
  const host = split.host ?? ctx.defaultHost;
  const config = ctx.hosts.find((h) => h.name === host);
  if (host !== LOCAL_HOST && !config) return { ok: false, error: { code: 'unknown_host', host, known: knownHosts(ctx) } };
  const written = split.dir.trim() || '.';
  let abs: string;
  if (written.startsWith('/')) abs = normalizeAbsolute(written);
  else if (host === LOCAL_HOST && (written === '~' || written.startsWith('~/'))) abs = normalizeAbsolute(`${ctx.localHome}/${written.slice(1)}`);
  else {
    // `~` on another host is its user's home there, which the daemon does not know: an absolute folder is asked for.
    const base = written.startsWith('~') ? undefined : ctx.baseFor(host);
    if (base === undefined || !base.startsWith('/')) return { ok: false, error: { code: 'needs_absolute', host, input: written } };
    abs = normalizeAbsolute(`${base}/${written}`);
  }
  if (!withinHostRoots(config?.workingDirs, abs)) return { ok: false, error: { code: 'outside_roots', host, dir: abs, roots: [...(config?.workingDirs ?? [])] } };
  return { ok: true, host, dir: abs };
}

/** How a place is written back (`gpu1:/srv/app`); a folder on this machine is written as it is. */
export function formatPlace(place: Place): string {
  return place.host === LOCAL_HOST ? place.dir : `${place.host}:${place.dir}`;
}

/**
 * The folder a new session on another host starts in when nobody named one: the bot's `workingDir` when it is absolute,
 * else the host's first absolute root, else `workingDir` as written (`~`: the host's user's home, resolved there).
 */
export function defaultRemoteDir(workingDir: string, host: PlaceHost | undefined): string {
  if (workingDir.startsWith('/')) return normalizeAbsolute(workingDir);
  const root = host?.workingDirs?.find((r) => r.startsWith('/'));
  return root ? normalizeAbsolute(root) : workingDir;
}

/**
 * A place as larkmux wrote it itself (formatPlace: a picker's value, /cd's result) read back: `host:dir` for a host
 * in `hostNames` or `local`, anything else a folder on this machine. Never a person's text: that goes to parsePlace.
 */
export function readPlace(value: string, hostNames: readonly string[]): Place {
  const split = splitPlace(value);
  if (split.host && (split.host === LOCAL_HOST || hostNames.includes(split.host))) return { host: split.host, dir: split.dir };
  return { host: LOCAL_HOST, dir: value };
}

/** The project picker's entries for other hosts: each absolute `workingDirs` root, as `host:dir`. */
export function hostPickerEntries(hosts: readonly PlaceHost[]): { label: string; path: string }[] {
  const places = hosts.flatMap((h) => (h.workingDirs ?? []).filter((r) => r.startsWith('/')).map((r) => ({ host: h.name, dir: normalizeAbsolute(r) })));
  // Keyed by the written place: a root given twice (`/srv`, `/srv/`) is one entry, where it first appears.
  const byPath = new Map(places.map((place) => [formatPlace(place), placeLabel(place)]));
  return [...byPath].map(([path, label]) => ({ label, path }));
}

/** Each value once, where it first appears. */
function onceEach(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** A place's short name on a button or a card's title: the folder's last name, after its host when not this machine. */
export function placeLabel(place: Place): string {
  const name = place.dir.split('/').filter(Boolean).pop() ?? place.dir;
  return place.host === LOCAL_HOST ? name : `${place.host}:${name}`;
}

/**
 * What a new topic's folder picker offers (each a place as formatPlace writes it): with no host roots, the bot's
 * projects as before (one is taken without asking, none means the bot's folder); with host roots, those after the
 * projects, or after the bot's own folder when it has no projects, so that configuring a host never moves a session
 * that nobody placed. Each place is offered once.
 */
export function pickerChoices(projects: readonly string[], hostEntries: readonly string[], botFolder: string): string[] {
  // Each once: the bot's folder on its default host is often one of that host's roots.
  if (hostEntries.length === 0) return onceEach(projects);
  return onceEach([...(projects.length > 0 ? projects : [botFolder]), ...hostEntries]);
}
