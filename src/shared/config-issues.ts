// One line per zod issue in config.json: the field, the value given (never a secret) and what is allowed, with a
// "did you mean" for a close misspelling. Pure; config.ts supplies the raw file and the keys each object allows.
import type { z } from 'zod';
// From cli-spec.ts, not config.ts: config.ts imports this module, so importing it back would be a cycle.
import { CLI_IDS } from './cli-spec.js';
import { closestWord } from './closest-word.js';
import { shownValue, valueAt } from './config-value.js';

/** The part of a setting's JSON schema the describer reads. */
export interface SettingSchema {
  type?: string | string[];
  properties?: Record<string, SettingSchema>;
  items?: SettingSchema;
  anyOf?: SettingSchema[];
  minimum?: number;
  maximum?: number;
}

/** What the describer needs besides the issue: the file as written and the schema of the setting at a path. */
export interface IssueContext {
  raw: unknown;
  schemaAt(path: readonly PropertyKey[]): SettingSchema | undefined;
}

type Issue = z.core.$ZodIssue;

/** What to write for a required field that is missing. */
const MISSING_FIX: Readonly<Record<string, string>> = {
  name: 'a short name for the bot, e.g. "claude"',
  appId: 'the App ID from the Feishu/Lark developer console → Credentials, like "cli_a1b2c3d4e5f60718"',
  appSecret: 'the App Secret, best as "${LARK_APP_SECRET}" with the value exported in the daemon\'s environment',
  command: 'the program to run, e.g. "htop"',
  readyPattern: 'a regex that matches the screen when the program waits for input',
};

/** What is allowed, for fields whose rule is a union zod cannot put in words. */
const ALLOWED: Readonly<Record<string, string>> = {
  cli: `use one of ${CLI_IDS.map((c) => `"${c}"`).join(', ')}, or a custom { "command": …, "readyPattern": … } object`,
  domain: 'use "feishu", "lark", or the http(s) base URL of a private deployment, e.g. "https://open.example.com"',
  console: 'use true (the console with its defaults), false (off), or an object of console settings such as { "cli": "shell", "workingDir": "~/code" }',
};

const SEE_DOCS = '(see docs/configuration.md)';

export function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'config';
  return path.map((p, i) => (typeof p === 'number' || /^\d+$/.test(String(p)) ? `[${String(p)}]` : `${i ? '.' : ''}${String(p)}`)).join('');
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);
const TYPE_WORDS: Readonly<Record<string, string>> = { array: 'list', record: 'object', int: 'whole number' };
const typeWord = (t: string) => article(TYPE_WORDS[t] ?? t);

/** Every line for a list of issues, each issue of a union narrowed to the branch the value was meant for. */
export function describeIssues(issues: readonly Issue[], ctx: IssueContext): string[] {
  // An empty string also fails its pattern: "is empty" says it all, once.
  const empty = new Set(issues.filter((i) => i.code === 'too_small' && i.origin === 'string').map((i) => fieldName(i.path)));
  return issues.filter((i) => i.code === 'too_small' || !empty.has(fieldName(i.path))).flatMap((issue) => describeIssue(issue, ctx));
}

/** The lines for one issue (an unknown-keys issue gives one per key; a union one the lines of its closest branch). */
export function describeIssue(issue: Issue, ctx: IssueContext): string[] {
  const path = issue.path;
  const field = fieldName(path);
  const last = path[path.length - 1];
  const given = valueAt(ctx.raw, path);
  const shown = shownValue(path, given);
  const allowed = typeof last === 'string' ? ALLOWED[last] : undefined;
  switch (issue.code) {
    case 'invalid_union': {
      // A value of the right kind (an object) with mistakes inside: report those, under their full path.
      const inner = issue.errors.find((branch) => branch.length > 0 && branch.every((i) => i.path.length > 0));
      if (inner) return describeIssues(inner.map((i) => ({ ...i, path: [...path, ...i.path] }) as Issue), ctx);
      if (typeof given === 'string' && last === 'cli') return [`${field}: unknown CLI ${shown}${suggest(given, [...CLI_IDS])}; ${allowed}`];
      return [`${field}: ${shown} is not allowed; ${allowed ?? `expected ${unionTypes(issue.errors)}`}`];
    }
    case 'unrecognized_keys': {
      const known = Object.keys(ctx.schemaAt(path)?.properties ?? {});
      const where = path.length ? `${field}` : 'the top level';
      return issue.keys.map((k) => `${field}: unknown field "${k}"${suggest(k, known)}; remove it or check the spelling (allowed in ${where}: ${known.join(', ')})`);
    }
    case 'invalid_type':
      if (given === undefined) {
        const fix = typeof last === 'string' ? MISSING_FIX[last] : undefined;
        return [`${field}: missing; add it${fix ? `: ${fix}` : ''} ${SEE_DOCS}`];
      }
      if (allowed) return [`${field}: ${shown} is not allowed; ${allowed}`];
      return [`${field}: expected ${typeWord(issue.expected)}, got ${shown}; fix the value's type ${SEE_DOCS}`];
    case 'invalid_value': {
      const values = issue.values.map((v) => JSON.stringify(v));
      const near = typeof given === 'string' ? suggest(given, issue.values.filter((v): v is string => typeof v === 'string')) : '';
      return [`${field}: ${shown} is not allowed${near}; use one of ${values.join(', ')}`];
    }
    case 'too_small':
    case 'too_big':
      return [`${field}: ${shown} ${bound(issue, ctx.schemaAt(path))}`];
    case 'invalid_format':
      if (allowed) return [`${field}: ${shown} is not allowed; ${allowed}`];
      if (issue.format === 'url') return [`${field}: ${shown} is not a full http(s) URL; write one like "https://lmx.example.com"`];
      return [`${field}: ${shown}: ${issue.message}`];
    case 'invalid_key':
      // A record's key (an environment variable name) broke its rule; the key is a name, not a secret.
      return [`${field}: ${issue.issues.map((i) => i.message).join('; ')}`];
    default:
      // Messages we wrote ourselves (regex hints) are safe; zod's own never contain the input.
      return [`${field}: ${shown}: ${issue.message}`];
  }
}

function suggest(word: string, candidates: readonly string[]): string {
  const near = closestWord(word, candidates);
  return near ? ` (did you mean "${near}"?)` : '';
}

/** "a boolean or an object", from the branches that each rejected the value's type. */
function unionTypes(branches: readonly (readonly Issue[])[]): string {
  const types = branches.flatMap((b) => b.filter((i) => i.code === 'invalid_type').map((i) => typeWord((i as { expected: string }).expected)));
  return [...new Set(types)].join(' or ') || 'another value';
}

/** The numeric or length rule a too_small/too_big issue broke, in words. */
function bound(issue: Extract<Issue, { code: 'too_small' | 'too_big' }>, schema: SettingSchema | undefined): string {
  const small = issue.code === 'too_small';
  const limit = Number(small ? (issue as { minimum: number | bigint }).minimum : (issue as { maximum: number | bigint }).maximum);
  const inclusive = issue.inclusive !== false;
  const word = small ? (inclusive ? 'at least' : 'more than') : inclusive ? 'at most' : 'less than';
  switch (issue.origin) {
    case 'string':
      return small && limit === 1 ? 'is empty; write a value' : `has the wrong length; use ${word} ${limit} characters`;
    case 'array':
      return `has the wrong number of entries; use ${word} ${limit}`;
    default: {
      const range = schema?.minimum !== undefined && schema.maximum !== undefined ? `${schema.type === 'integer' ? 'a whole number' : 'a number'} from ${schema.minimum} to ${schema.maximum}` : `${word} ${limit}`;
      return `is too ${small ? 'small' : 'large'}; use ${range}`;
    }
  }
}
