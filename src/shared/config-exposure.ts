// Who else can read or change config.json, and whether that matters: a file holding a secret written out (not a
// `${NAME}` reference) must be readable by its owner alone; a file others can write lets them choose what larkmux runs.
import { ENV_REF, isObject, looseOwners } from './config-checks.js';
import { SECRET_KEYS } from './config-value.js';

/** A value made only of `${NAME}` references carries no secret itself (the environment holds it). */
const literal = (v: unknown): boolean => typeof v === 'string' && v !== '' && v.replace(ENV_REF, '') !== '';

/** The fields of a raw config.json that hold a secret written out: app secrets, event keys and tokens, every env entry. */
export function literalSecretFields(raw: unknown): string[] {
  const fields: string[] = [];
  for (const { prefix, entry } of looseOwners(raw)) {
    // The console has no Feishu app, so no app secret or event keys: only its env can hold a secret.
    if (prefix !== 'console') for (const key of SECRET_KEYS) if (literal(entry[key])) fields.push(`${prefix}.${key}`);
    if (isObject(entry.env)) for (const [k, v] of Object.entries(entry.env)) if (literal(v)) fields.push(`${prefix}.env.${k}`);
  }
  return fields;
}

export type ConfigExposure = { ok: true; detail: string } | { ok: false; problem: string; fix: string };

/** Permission bits of others: read by group or world, write by group or world. */
const OTHERS = { read: 0o044, write: 0o022 } as const;

/**
 * The verdict on config.json's mode: readable by others while it holds written-out secrets, or writable by others
 * (a `cli` or `env` they change runs as you) → a problem with the exact fix. Pure: the caller stats and reads the file.
 */
export function configExposure(path: string, mode: number, secretFields: readonly string[]): ConfigExposure {
  const perms = (mode & 0o777).toString(8).padStart(3, '0');
  const fix = `chmod 600 ${path}`;
  if (mode & OTHERS.write) {
    return { ok: false, problem: `${path} (mode ${perms}) can be changed by other users, who could then choose what larkmux runs as you`, fix };
  }
  if (mode & OTHERS.read && secretFields.length) {
    const who = mode & 0o004 ? 'every user of this machine' : 'its group';
    const shown = secretFields.length > 3 ? `${secretFields.slice(0, 3).join(', ')} and ${secretFields.length - 3} more` : secretFields.join(', ');
    return { ok: false, problem: `${path} (mode ${perms}) holds secrets (${shown}) and ${who} can read it`, fix };
  }
  if (mode & OTHERS.read) return { ok: true, detail: `${path} (mode ${perms}): no secret is written in it (only \${NAME} references)` };
  return { ok: true, detail: `${path} (mode ${perms}): only you can read it` };
}
