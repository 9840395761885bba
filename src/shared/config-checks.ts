// Checks on config.json that zod's shape alone does not make: `${NAME}` reference syntax, regexes that compile, and
// the fix for each zod issue, in words a newcomer can act on. Pure: folder existence is checked in config-file.ts.
import type { z } from 'zod';
// From cli-spec.ts, not config.ts: config.ts imports this module, so importing it back would be a cycle.
import { CLI_IDS, type CliSpec } from './cli-spec.js';

/** Keys whose values are secrets: they are never echoed, only named. */
export const SECRET_KEYS: ReadonlySet<string> = new Set(['appSecret', 'encryptKey', 'verificationToken']);

/** Custom-CLI fields that are regular expressions: `$` and `{` mean regex things there, not environment references. */
const REGEX_KEYS: ReadonlySet<string> = new Set(['readyPattern', 'busyPattern']);

/** What to write for a required field that is missing. */
const MISSING_FIX: Readonly<Record<string, string>> = {
  name: 'a short name for the bot, e.g. "claude"',
  appId: 'the App ID from the Feishu/Lark developer console → Credentials, like "cli_a1b2c3d4e5f60718"',
  appSecret: 'the App Secret, best as "${LARK_APP_SECRET}" with the value exported in the daemon\'s environment',
  command: 'the program to run, e.g. "htop"',
  readyPattern: 'a regex that matches the screen when the program waits for input',
};

export function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'config';
  return path.map((p, i) => (typeof p === 'number' || /^\d+$/.test(String(p)) ? `[${String(p)}]` : `${i ? '.' : ''}${String(p)}`)).join('');
}

/** A message per zod issue that names the field and what to write; values are never included. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const field = fieldName(issue.path);
  const last = issue.path[issue.path.length - 1];
  if (last === 'cli' && (issue.code === 'invalid_union' || issue.code === 'invalid_value')) {
    return `${field}: unknown CLI; use one of ${CLI_IDS.map((c) => `"${c}"`).join(', ')}, or a custom { "command": …, "readyPattern": … } object`;
  }
  if (last === 'domain') return `${field}: use "feishu", "lark", or the http(s) base URL of a private deployment, e.g. "https://open.example.com"`;
  switch (issue.code) {
    case 'unrecognized_keys':
      return `${field}: unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}; remove them or check the spelling (see docs/configuration.md)`;
    case 'invalid_type':
      if (/received undefined/.test(issue.message)) {
        const fix = typeof last === 'string' ? MISSING_FIX[last] : undefined;
        return `${field}: missing; add it${fix ? `: ${fix}` : ''} (see docs/configuration.md)`;
      }
      return `${field}: expected ${issue.expected}; fix the value's type (see docs/configuration.md)`;
    case 'invalid_value':
      return `${field}: must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      if (issue.format === 'url') return `${field}: must be a full http(s) URL, e.g. "https://lmx.example.com"`;
      return `${field}: ${issue.message}`;
    default: {
      // Messages we wrote ourselves (regex hints) are safe; zod's own never contain the input.
      const msg = typeof last === 'string' && SECRET_KEYS.has(last) ? 'invalid value' : issue.message;
      return `${field}: ${msg}`;
    }
  }
}

/** `${NAME}` with a proper name, the only reference form; anything else that starts with `${` is a mistake. */
const GOOD_REF = /\$\{[A-Za-z_][A-Za-z0-9_]*\}/g;
const BRACE_REF_START = /\$\{/;
/** A whole value that looks like a shell variable: `$LARK_APP_SECRET` (taken literally before, as the secret itself). */
const BARE_REF = /^\$([A-Za-z_][A-Za-z0-9_]*)$/;

/** Reference-syntax mistakes in one string: `$NAME` without braces (a whole value) or `${…}` whose name is not valid. */
export function envRefProblem(value: string, path: readonly PropertyKey[]): string | null {
  const last = path[path.length - 1];
  if (typeof last === 'string' && REGEX_KEYS.has(last)) return null;
  const field = fieldName(path);
  const bare = BARE_REF.exec(value);
  if (bare) return `${field}: "$${bare[1]}" is taken literally; write "\${${bare[1]}}" (with braces) to read the environment variable`;
  if (BRACE_REF_START.test(value.replace(GOOD_REF, ''))) {
    return `${field}: a \${…} reference needs a variable name of letters, digits and _ (e.g. "\${LARK_APP_SECRET}"), closed by "}"`;
  }
  return null;
}

/** Custom-CLI regexes that do not compile, named by field, with the engine's reason (the pattern itself is config, not a secret). */
export function regexProblems(config: { readonly bots: readonly { readonly cli: CliSpec }[] }): string[] {
  const problems: string[] = [];
  config.bots.forEach((b, i) => {
    if (typeof b.cli !== 'object') return;
    for (const key of ['readyPattern', 'busyPattern'] as const) {
      const source = b.cli[key];
      if (source === undefined) continue;
      try {
        new RegExp(source, 'm');
      } catch (e) {
        problems.push(`bots[${i}].cli.${key}: not a valid regular expression (${(e as Error).message.replace(/^Invalid regular expression: /, '')}); fix it (JavaScript syntax, no surrounding slashes)`);
      }
    }
  });
  return problems;
}
