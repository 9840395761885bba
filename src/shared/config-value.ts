// How a config error shows "the value given": short, typed, and never a secret (DESIGN §3: an error never echoes one).

/** Keys whose values are secrets: they are never echoed, only named. */
export const SECRET_KEYS: ReadonlySet<string> = new Set(['appSecret', 'encryptKey', 'verificationToken']);

/** Values under these keys are records of secrets (a CLI's API keys): every entry is hidden. */
const SECRET_RECORDS: ReadonlySet<string> = new Set(['env']);

/** Longer strings are cut: an error line names the value, it does not reprint a paragraph. */
const SHOWN_MAX_CHARS = 40;

/** A field whose value is a secret by its place in the file. */
export function isSecretPath(path: readonly PropertyKey[]): boolean {
  const last = path[path.length - 1];
  if (typeof last === 'string' && SECRET_KEYS.has(last)) return true;
  return path.slice(0, -1).some((p) => typeof p === 'string' && SECRET_RECORDS.has(p));
}

/**
 * A string that looks like a credential wherever it was put (an app secret pasted into `appId` or `name` is a common
 * slip): 16+ characters, no spaces, letters and digits mixed, and not a path or URL. Feishu app secrets are 32
 * alphanumerics, API keys longer; enum values, CLI names and folder paths do not match.
 */
export function looksLikeSecret(value: string): boolean {
  return value.length >= 16 && !/\s/.test(value) && /[A-Za-z]/.test(value) && /\d/.test(value) && !/^(~|\/|\.|https?:)/.test(value);
}

/** The value at `path` in the raw (unsubstituted) config, or undefined. */
export function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = raw;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[String(p)];
  }
  return v;
}

/**
 * The value as an error line shows it: `"fr"`, `0`, `true`, `a list`, `an object`, or `(hidden)` for a secret. It is
 * read from the file as written, before `${NAME}` substitution, so a reference shows as the reference, never its value.
 */
export function shownValue(path: readonly PropertyKey[], value: unknown): string {
  if (isSecretPath(path)) return '(hidden)';
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value !== 'string') return typeof value;
  if (looksLikeSecret(value)) return '(hidden: looks like a secret)';
  const cut = value.length > SHOWN_MAX_CHARS ? `${value.slice(0, SHOWN_MAX_CHARS)}…` : value;
  return JSON.stringify(cut);
}
