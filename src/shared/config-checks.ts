// Checks on config.json that zod's shape alone does not make: `${NAME}` reference syntax, regexes that compile, bots
// that clash. They read the file defensively (plain JSON, not the parsed config) so that they run, and report, even
// when the shape has errors too: `doctor` and `start` list every mistake at once. Pure: folders are checked in
// config-file.ts.
import { fieldName } from './config-issues.js';
import { shownValue } from './config-value.js';
import { LOCAL_HOST } from './host-config.js';

/** Custom-CLI fields that are regular expressions: `$` and `{` mean regex things there, not environment references. */
const REGEX_KEYS: ReadonlySet<string> = new Set(['readyPattern', 'busyPattern']);

/** An environment variable's name as a reference may spell it: letters, digits and _, not starting with a digit. */
const ENV_NAME = '[A-Za-z_][A-Za-z0-9_]*';
/**
 * `${NAME}` with a proper name, the only reference form (the name is group 1); anything else that starts with `${` is a
 * mistake. Global, for `replace` and `matchAll`, which start from the beginning whatever an earlier use left.
 */
export const ENV_REF = new RegExp(`\\$\\{(${ENV_NAME})\\}`, 'g');
const BRACE_REF_START = /\$\{/;
/** A whole value that looks like a shell variable: `$LARK_APP_SECRET` (taken literally before, as the secret itself). */
const BARE_REF = new RegExp(`^\\$(${ENV_NAME})$`);

/** Reference-syntax mistakes in one string: `$NAME` without braces (a whole value) or `${…}` whose name is not valid. */
export function envRefProblem(value: string, path: readonly PropertyKey[]): string | null {
  const last = path[path.length - 1];
  if (typeof last === 'string' && REGEX_KEYS.has(last)) return null;
  const field = fieldName(path);
  const bare = BARE_REF.exec(value);
  if (bare) return `${field}: "$${bare[1]}" is taken literally; write "\${${bare[1]}}" (with braces) to read the environment variable`;
  if (BRACE_REF_START.test(value.replace(ENV_REF, ''))) {
    return `${field}: a \${…} reference needs a variable name of letters, digits and _ (e.g. "\${LARK_APP_SECRET}"), closed by "}"`;
  }
  return null;
}

/** A JSON object of config.json read loosely: any keys, any values. */
export type Loose = Record<string, unknown>;
export const isObject = (v: unknown): v is Loose => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The entries of `bots` that are objects, with their index (a file whose `bots` is not a list has none). */
function looseBots(raw: unknown): { bot: Loose; index: number }[] {
  const bots = isObject(raw) ? raw.bots : undefined;
  return Array.isArray(bots) ? bots.flatMap((bot, index) => (isObject(bot) ? [{ bot, index }] : [])) : [];
}

/** The names of the configured hosts, as far as the raw file has them. */
function looseHostNames(raw: unknown): string[] {
  const hosts = isObject(raw) ? raw.hosts : undefined;
  return Array.isArray(hosts) ? hosts.flatMap((h) => (isObject(h) && typeof h.name === 'string' ? [h.name] : [])) : [];
}

/** Each bot's entry and then the console's (when it is an object), with the field prefix that names it in a message. */
export function looseOwners(raw: unknown): { prefix: string; entry: Loose }[] {
  const owners = looseBots(raw).map(({ bot, index }) => ({ prefix: `bots[${index}]`, entry: bot }));
  if (isObject(raw) && isObject(raw.console)) owners.push({ prefix: 'console', entry: raw.console });
  return owners;
}

/** Custom-CLI regexes (each bot's and the console's) that do not compile, with the engine's reason (config, not a secret). */
export function regexProblems(raw: unknown): string[] {
  const problems: string[] = [];
  for (const { prefix, entry: { cli } } of looseOwners(raw)) {
    if (!isObject(cli)) continue;
    for (const key of ['readyPattern', 'busyPattern'] as const) {
      const source = cli[key];
      if (typeof source !== 'string') continue;
      try {
        new RegExp(source, 'm');
      } catch (e) {
        problems.push(`${prefix}.cli.${key}: not a valid regular expression (${(e as Error).message.replace(/^Invalid regular expression: /, '')}); fix it (JavaScript syntax, no surrounding slashes)`);
      }
    }
  }
  return problems;
}

/** Bots that clash with each other (a name or app id twice) and webhook bots anyone could post events to. */
export function botProblems(raw: unknown): string[] {
  const errors: string[] = [];
  const names = new Set<unknown>();
  const ids = new Set<unknown>();
  const hostNames = looseHostNames(raw);
  for (const { bot: b, index: i } of looseBots(raw)) {
    if (typeof b.name === 'string' && names.has(b.name)) errors.push(`bots[${i}].name: ${shownValue(['name'], b.name)} is used by another bot; give each bot its own name`);
    if (typeof b.appId === 'string' && ids.has(b.appId)) errors.push(`bots[${i}].appId: ${shownValue(['appId'], b.appId)} appears twice; one entry per app`);
    names.add(b.name);
    ids.add(b.appId);
    if (typeof b.host === 'string' && b.host !== LOCAL_HOST && !hostNames.includes(b.host)) {
      errors.push(`bots[${i}].host: ${shownValue(['host'], b.host)} is not a configured host; known hosts: ${[LOCAL_HOST, ...hostNames].join(', ')} (add it under "hosts", or remove the bot's "host")`);
    }
    if (b.events === 'webhook' && !b.encryptKey && !b.verificationToken) {
      errors.push(
        `bots[${i}]: events is "webhook" but neither encryptKey nor verificationToken is set, so anyone who finds the URL could post events; ` +
          'copy the Encrypt Key or Verification Token from the developer console (Events & Callbacks → Encryption Strategy) into the bot',
      );
    }
  }
  return errors;
}
