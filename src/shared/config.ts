// config.json: the one schema (zod) for LARKMUX_HOME/config.json, with `${ENV}` secrets and errors that name the fix.
import { z } from 'zod';
import { ENV_REF, botProblems, envRefProblem, regexProblems } from './config-checks.js';
import { describeIssues, fieldName, type SettingSchema } from './config-issues.js';
import { LocaleSchema, defaultLocale, type Locale } from './i18n.js';
import { HOST_NAME_RE, HostsSchema } from './host-config.js';

// The CLI spec lives in its own module so that browser code (the console page, through ipc.ts) never loads this file.
export * from './cli-spec.js';
import { CliSpecSchema } from './cli-spec.js';
import { CatchUpSchema, isTimezone } from './schedule-settings.js';
import { BudgetSchema } from './usage-budget.js';

/** Feishu's app id shape; the SDK's long connection silently refuses anything else. */
export const APP_ID_RE = /^cli_[0-9a-fA-F]{16}$/;

const domainSchema = z
  .union([z.enum(['feishu', 'lark']), z.url({ protocol: /^https?$/ })])
  .default('feishu')
  .describe('feishu, lark, or a base URL (private deployment or test server)');

export const BotConfigSchema = z.strictObject({
  name: z.string().min(1).max(64).regex(/^[A-Za-z0-9_.-]+$/, 'use letters, digits, "_", "." or "-"').describe('Short name of this bot in logs and status'),
  appId: z.string().regex(APP_ID_RE, 'must look like cli_ followed by 16 hex digits (Feishu console → Credentials)').describe('App ID from the Feishu developer console'),
  appSecret: z.string().min(1).describe('App secret; write "${LARK_APP_SECRET}" to read it from the environment'),
  domain: domainSchema,
  events: z.enum(['websocket', 'webhook']).default('websocket').describe('websocket (long connection, no public URL needed) or webhook'),
  encryptKey: z.string().optional().describe('Webhook only: the event Encrypt Key (signature, timestamp and decryption checks); webhook mode needs this or verificationToken'),
  verificationToken: z.string().optional().describe('Webhook only: the Verification Token, checked on every event; webhook mode needs this or encryptKey'),
  webhookPort: z.number().int().min(1).max(65535).default(7690).describe('Webhook only: port the event/callback endpoint listens on'),
  webhookPath: z.string().regex(/^\/[A-Za-z0-9_./-]*$/, 'a URL path starting with /').default('/lark/events').describe('Webhook only: path of the event and card callback endpoint'),
  cli: CliSpecSchema.default('claude-code').describe('claude-code, codex, gemini, shell, or { command, args, readyPattern, busyPattern }'),
  workingDir: z.string().min(1).default('~').describe('Folder new sessions start in'),
  host: z.string().regex(HOST_NAME_RE, 'a host name from "hosts", or "local"').optional().describe('Host a new session of this bot runs on unless `/cd host:dir` names another: "local" (this machine, the default) or a name from `hosts`'),
  projects: z.array(z.string().min(1)).default([]).describe('Folders offered by the project picker (the picker also offers each host\'s workingDirs as host:dir)'),
  allowedUsers: z.array(z.string().min(1)).default([]).describe('open_ids who may talk and operate'),
  allowedChats: z.array(z.string().min(1)).default([]).describe('chat_ids whose members may talk'),
  startupDialogs: z.enum(['auto', 'ask']).default('auto').describe("CLI startup dialogs (theme, trust this folder, API key): auto = answered by each adapter's safe default, ask = shown to the person as a card"),
  locale: LocaleSchema.optional().describe('Language of everything chat and browser users read: zh-CN or en (default: zh-CN for feishu and private domains, en for lark)'),
  groupScope: z.enum(['thread', 'chat']).default('thread').describe('In groups: one session per topic (thread) or per chat'),
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'environment variable names are letters, digits and _'), z.string()).default({}).describe("Environment for this bot's CLI (its API keys go here): the CLI gets exactly these plus PATH, HOME, LANG/LC_*, TERM and the other names in docs/operations.md, nothing else of the daemon's environment; never on a command line"),
  maxLiveWorkers: z.number().int().min(1).max(1000).default(30).describe('Worker processes kept alive; idle ones beyond are detached'),
  maxLiveClis: z.number().int().min(1).max(1000).default(20).describe('CLIs kept running; least recently used idle ones beyond are stopped'),
  idleDetachMinutes: z.number().min(0).max(10_080).default(10).describe('A session idle this long (no message, no turn, no web terminal open) has its worker detached: the CLI keeps running in tmux, the next message, key or web visit re-attaches in about a second; 0 = never'),
  // schedules (DESIGN §12): /in, /at, /every
  timezone: z.string().min(1).refine(isTimezone, 'an IANA time zone such as Asia/Shanghai or Europe/Berlin').optional().describe("Time zone in which /at and /every read times and cron expressions (an IANA name such as Asia/Shanghai); unset, the host's"),
  catchUp: CatchUpSchema.default('once').describe('A schedule that came due while the daemon was not running: once = runs once at start with a notice (however many times it was missed), skip = skipped with a notice'),
  // usage limits and budgets (DESIGN §12)
  // A daily budget (usage-budget.ts): unset, none.
  budget: BudgetSchema.optional(),
  // files both ways (DESIGN §11)
  answerFileRoots: z.array(z.string().min(1)).default([]).describe('Folders besides the session\'s working directory from which files may be uploaded: those a final answer links and those `larkmux send` names (on this machine: a pane on a host sends from the session\'s folder there only)'),
  // attention for the person needed (issue 16)
  attention: z
    .strictObject({
      mention: z.boolean().default(true).describe('@-mention the person whose turn it is when the session waits for them (a choice, a permission prompt, a failed delivery, a crash) or when a long turn ends; never the whole group'),
      pin: z.boolean().default(true).describe("Pin the chat at the top of that person's chat list while the session waits for them (Feishu's time-sensitive feed card; needs the im:datasync.feed_card.time_sensitive:write scope, quietly off without it)"),
      buzzAfterMinutes: z.number().min(0).max(1440).default(0).describe('Buzz the person (an in-app urgent message) when the session has waited this many minutes for them; 0 = never (needs the im:message.urgent scope)'),
      notifyAfterSeconds: z.number().min(0).max(86_400).default(120).describe('A turn that took longer than this ends with an @-mention of its requester; shorter turns end quietly'),
    })
    .prefault({}),
  attachments: z
    .strictObject({
      imageWaitSeconds: z.number().int().min(0).max(3600).default(60).describe('A message with only a picture waits this long for the same person\'s next text in the topic, and goes with it as one prompt; after the wait it goes alone with a default instruction ("Please look at this image"). 0 = send at once'),
      maxFiles: z.number().int().min(1).max(1000).default(20).describe('Attachments saved from one message (a merged forward counts all its children); the rest are named as not saved'),
      maxMessageMiB: z.number().min(1).max(10_240).default(20).describe('Total MiB saved from one message with several attachments'),
      maxFileMiB: z.number().min(1).max(10_240).default(100).describe('MiB of a single attachment (a message with one file may use this much)'),
    })
    .default({ imageWaitSeconds: 60, maxFiles: 20, maxMessageMiB: 20, maxFileMiB: 100 })
    .describe('Pictures and files sent in the chat: how long a lone picture waits for text, and size limits (a person is told what was not saved)'),
});
export type BotConfig = z.infer<typeof BotConfigSchema>;

/** The local console's own settings (DESIGN §11); `"console": true` takes all defaults. */
export const ConsoleConfigSchema = z.strictObject({
  cli: CliSpecSchema.optional().describe('CLI a new console topic starts with unless the person picks another; default: the first bot\'s cli, else the first of claude, codex, gemini found on PATH, else a login shell'),
  workingDir: z.string().min(1).default('~').describe('Folder console sessions start in'),
  projects: z.array(z.string().min(1)).default([]).describe('More folders the console offers when a topic is created'),
  locale: LocaleSchema.optional().describe('Language of the whole console (page, cards, replies, toasts, web terminal): zh-CN or en; unset, the language of the browser (zh* → zh-CN, else en)'),
  env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'environment variable names are letters, digits and _'), z.string()).default({}).describe("Extra environment for the console's CLIs (as a bot's env)"),
  allowRemote: z.boolean().default(false).describe('Serve the console to other machines too (it still needs its link); by default only this machine (127.0.0.1, or a reverse proxy on it) may open it'),
});
export type ConsoleConfig = z.infer<typeof ConsoleConfigSchema>;

export const ConfigSchema = z.strictObject({
  console: z
    .union([z.boolean(), ConsoleConfigSchema])
    .optional()
    .describe('Local chat console at /console/ on the web port (no Feishu app needed): true or an object turns it on beside bots, false turns it off; default: on only when no bot is configured'),
  web: z
    .strictObject({
      port: z.number().int().min(0).max(65535).default(7680).describe('Port of the web terminal (0 = any free port)'),
      host: z.string().min(1).default('127.0.0.1').describe('Address the web terminal listens on (127.0.0.1: this machine only; 0.0.0.0 exposes plain HTTP to the network, see docs/operations.md)'),
      publicUrl: z.url({ protocol: /^https?$/ }).optional().describe('URL people open (behind TLS or a tunnel)'),
      allowedHosts: z
        .array(z.string().regex(/^(?:[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.?|\[?[0-9A-Fa-f:.]+\]?)$/, 'a host name or IP address, without scheme, port or path'))
        .default([])
        .describe('Further host names the web port answers to; besides these it answers only to localhost, 127.0.0.1, [::1], the publicUrl host and a specific web.host, and refuses any other Host with 421 (DNS rebinding)'),
    })
    .prefault({}),
  tmux: z
    .strictObject({
      socket: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'a tmux -L socket name: letters, digits, "_", "." or "-"').nullable().default(null).describe('tmux -L socket name; null = lmx-<short hash of LARKMUX_HOME>, so each home has its own tmux server and never sees or prunes another home\'s sessions (`larkmux status` prints it)'),
    })
    .prefault({}),
  bots: z.array(BotConfigSchema).default([]),
  // other machines over OpenSSH (issue 29)
  hosts: HostsSchema,
});
export type Config = z.infer<typeof ConfigSchema>;

export type ConfigResult =
  /** envNames: every variable a `${…}` in the file names (the daemon removes them from its environment, DESIGN §11). */
  | { ok: true; config: Config; secrets: string[]; envNames: string[] }
  | { ok: false; errors: string[] };

/** Every environment variable name that a `${NAME}` anywhere in the raw config refers to. */
export function configEnvNames(value: unknown, out: Set<string> = new Set()): string[] {
  if (typeof value === 'string') for (const m of value.matchAll(ENV_REF)) out.add(m[1]!);
  else if (Array.isArray(value)) for (const v of value) configEnvNames(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) configEnvNames(v, out);
  return [...out].sort();
}

/** Replaces `${NAME}` in every string with the environment's value; missing names are errors naming the field. */
export function substituteEnv(value: unknown, env: NodeJS.ProcessEnv, path: string[] = [], errors: string[] = []): unknown {
  if (typeof value === 'string') {
    const syntax = envRefProblem(value, path);
    if (syntax) {
      errors.push(syntax);
      return value;
    }
    return value.replace(ENV_REF, (_m, name: string) => {
      const v = env[name];
      if (v === undefined) {
        errors.push(`${fieldName(path)}: environment variable ${name} is not set; export it before starting larkmux or write the value in the file`);
        // Kept as written, so the shape check below still runs (and does not add "empty" for this same field).
        return `\${${name}}`;
      }
      return v;
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => substituteEnv(v, env, [...path, String(i)], errors));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteEnv(v, env, [...path, k], errors)]));
  }
  return value;
}

/** Validates a parsed config.json, reporting every mistake at once. Never throws; never puts a secret value into an error. */
export function parseConfig(raw: unknown, env: NodeJS.ProcessEnv = process.env): ConfigResult {
  const errors: string[] = [];
  const substituted = substituteEnv(raw, env, [], errors);
  const res = ConfigSchema.safeParse(substituted);
  if (!res.success) errors.push(...describeIssues(res.error.issues, { raw, schemaAt: settingSchemaAt }));
  errors.push(...botProblems(substituted), ...regexProblems(raw));
  if (errors.length || !res.success) return { ok: false, errors };
  const config = res.data;
  const secrets = config.bots.flatMap((b) => [b.appSecret, b.encryptKey, b.verificationToken]).filter((s): s is string => !!s && s.length >= 4);
  return { ok: true, config, secrets, envNames: configEnvNames(raw) };
}

let configJsonSchema: SettingSchema | undefined;

/** The JSON schema of the setting at `path` (for the keys an object allows and a number's range), or undefined. */
export function settingSchemaAt(path: readonly PropertyKey[]): SettingSchema | undefined {
  configJsonSchema ??= z.toJSONSchema(ConfigSchema, { io: 'input', unrepresentable: 'any' }) as SettingSchema;
  let node: SettingSchema | undefined = configJsonSchema;
  for (const p of path) {
    // A union (`console`: boolean or object, `cli`: id or object): follow the branch that has what the path needs.
    const numeric = typeof p === 'number' || /^\d+$/.test(String(p));
    const pick = (n: SettingSchema): SettingSchema | undefined => (numeric ? n.items : n.properties?.[String(p)]);
    node = node && (pick(node) ?? node.anyOf?.map(pick).find((n) => n !== undefined));
  }
  return node && !node.properties && node.anyOf ? (node.anyOf.find((n) => n.properties) ?? node) : node;
}

/** The JSON in config.json's text, or the one clear line saying where its syntax breaks. */
export function parseConfigJson(text: string): { ok: true; raw: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, raw: JSON.parse(text) };
  } catch (e) {
    // V8's message quotes the text around the error, which may be a secret: report only the position.
    const pos = /position (\d+)/.exec((e as Error).message)?.[1];
    const where = pos === undefined ? '' : ` at ${lineCol(text, Number(pos))}`;
    return { ok: false, error: `config.json is not valid JSON${where}; fix the syntax (a missing comma or quote is the usual cause)` };
  }
}

/** Parses the text of config.json (JSON syntax errors become one clear line). */
export function parseConfigText(text: string, env: NodeJS.ProcessEnv = process.env): ConfigResult {
  const json = parseConfigJson(text);
  return json.ok ? parseConfig(json.raw, env) : { ok: false, errors: [json.error] };
}

function lineCol(text: string, pos: number): string {
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const col = pos - before.lastIndexOf('\n');
  return `line ${line}, column ${col}`;
}

/** The console's settings when it runs (no bot configured, or `console` set), else null. */
export function consoleSettings(config: Pick<Config, 'console' | 'bots'>): ConsoleConfig | null {
  const c = config.console;
  if (c === false || (c === undefined && config.bots.length > 0)) return null;
  return typeof c === 'object' ? c : ConsoleConfigSchema.parse({});
}

/** The locale a bot's users read: its `locale`, else the default for its domain. */
export function botLocale(bot: Pick<BotConfig, 'locale' | 'domain'>): Locale {
  return bot.locale ?? defaultLocale(bot.domain);
}
