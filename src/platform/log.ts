// Logging: pino to LARKMUX_HOME/logs, with secrets (configured values and well-known keys) never written.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import pino, { type Logger } from 'pino';

export type { Logger };

/** Keys whose values are always replaced, wherever they appear in a log object. */
const REDACT_KEYS = [
  'appSecret', 'app_secret', 'secret', 'token', 'tenant_access_token', 'app_access_token', 'access_token',
  'authorization', 'Authorization', 'encryptKey', 'verificationToken', 'password', 'viewToken', 'writeToken', 'cookie',
];
const REDACT_PATHS = REDACT_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`]);

const MASK = '[redacted]';

/** Values registered here (app secrets, live tokens) are masked inside any logged string. */
const secretValues = new Set<string>();

export function registerSecret(value: string | undefined | null): void {
  if (value && value.length >= 4) secretValues.add(value);
}

export function forgetSecret(value: string): void {
  secretValues.delete(value);
}

/** Masks every registered secret inside a string. Exported for error messages and cards too. */
export function scrubSecrets(s: string): string {
  let out = s;
  for (const v of secretValues) if (out.includes(v)) out = out.split(v).join(MASK);
  return out;
}

function scrubDeep(value: unknown, depth = 0): unknown {
  if (secretValues.size === 0 || depth > 6) return value;
  if (typeof value === 'string') return scrubSecrets(value);
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, depth + 1));
  if (value instanceof Error) return { type: value.name, message: scrubSecrets(value.message), stack: value.stack ? scrubSecrets(value.stack) : undefined };
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubDeep(v, depth + 1)]));
  }
  return value;
}

export interface LogOptions {
  /** File to append to; omitted = stderr. */
  file?: string;
  level?: string;
  name?: string;
}

export function createLogger(opts: LogOptions = {}): Logger {
  let dest: pino.DestinationStream;
  if (opts.file) {
    mkdirSync(dirname(opts.file), { recursive: true, mode: 0o700 });
    dest = pino.destination({ dest: opts.file, append: true, sync: true, mode: 0o600 });
  } else {
    dest = pino.destination(2);
  }
  return pino(
    {
      name: opts.name ?? 'larkmux',
      level: opts.level ?? process.env.LARKMUX_LOG_LEVEL ?? 'info',
      redact: { paths: REDACT_PATHS, censor: MASK },
      formatters: { log: (obj) => scrubDeep(obj) as Record<string, unknown> },
      hooks: {
        logMethod(args, method) {
          const cleaned = args.map((a) => (typeof a === 'string' ? scrubSecrets(a) : a)) as Parameters<typeof method>;
          return method.apply(this, cleaned);
        },
      },
    },
    dest,
  );
}
