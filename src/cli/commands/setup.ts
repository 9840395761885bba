// `larkmux setup`: asks for (or takes flags for) a bot's credentials, checks them with Feishu, merges config.json, prints the console steps.
import { existsSync } from 'node:fs';
import { cliInstallFor } from '../../shared/cli-install.js';
import { APP_ID_RE, CLI_IDS, parseConfig, type CliSpec } from '../../shared/config.js';
import { which } from '../../platform/which.js';
import { daemonState } from '../daemon-process.js';
import { checkCredentials, openApiBase } from '../setup/check-credentials.js';
import { mergeBot, readRawConfig, validateMerged, writeConfigFile, type SetupBot } from '../setup/config-writer.js';
import { consoleChecklist } from '../setup/console-settings.js';
import { createPrompter, type Prompter } from '../setup/prompter.js';
import { accountsHost, createAppByScan } from '../setup/scan-create.js';
import { cliLocale } from '../cli-locale.js';
import { t } from '../../shared/i18n.js';
import { EXIT, type CliCommand, type CliContext } from '../types.js';

const SETUP_LIMITS = {
  /** Wrong answers to one question before setup gives up (piped input must not loop forever). */
  triesPerQuestion: 3,
  /** Exit status after Ctrl+C (128 + SIGINT), as shells report an interrupted command. */
  interruptedExit: 130,
} as const;

/** The first question's answer that means "create a new app by scanning" (an Enter; never a valid app id). */
const SCAN_CHOSEN = 'scan';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** An answer like `${LARK_APP_SECRET}` or `$LARK_APP_SECRET` means "read the secret from this variable". */
const ENV_REF_ANSWER = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/;

/** Default bot name per CLI, so a first bot gets a readable name without a question. */
const DEFAULT_NAME: Record<string, string> = { 'claude-code': 'claude', codex: 'codex', gemini: 'gemini', shell: 'shell' };

type Field<T> = { ok: true; value: T } | { ok: false; code: number; message: string };

interface Answers {
  appId: string;
  secret: { stored: string; value: string; fromEnv?: string };
  domain: string;
  cli: string;
  workingDir: string;
  name: string;
  /** The app was just created by scan-to-create (its secret came from the platform, not from the person). */
  scanned: boolean;
}

function validDomain(d: string): string | null {
  if (d === 'feishu' || d === 'lark') return null;
  try {
    const u = new URL(d);
    return u.protocol === 'http:' || u.protocol === 'https:' ? null : 'a base URL must start with http:// or https://';
  } catch {
    return 'write feishu, lark, or a base URL such as https://open.example.com';
  }
}

export const setup: CliCommand = {
  name: 'setup',
  summary: 'Connect a Feishu/Lark bot: check its credentials, write config.json, list the console settings',
  flags: [
    { name: 'scan', description: 'Create a new app by scanning one link in Feishu/Lark (with the scopes, event and card callback larkmux needs); Enter at the first question does the same' },
    { name: 'accounts-url', value: 'URL', description: 'The scan service of a private deployment (https://host); default: Feishu/Lark accounts' },
    { name: 'app-id', value: 'cli_…', description: 'App ID (Credentials & Basic Info in the developer console)' },
    { name: 'app-secret-env', value: 'NAME', description: 'Read the app secret from this environment variable; config.json stores ${NAME}' },
    { name: 'app-secret-stdin', description: 'Read the app secret from the first line of stdin (stored in config.json, mode 0600); for scripts' },
    { name: 'app-secret', value: 'SECRET', description: 'The app secret itself; visible to every local user in `ps` while setup runs: prefer --app-secret-stdin or --app-secret-env' },
    { name: 'domain', value: 'feishu|lark|URL', description: 'Which platform (default feishu)' },
    { name: 'cli', value: 'ID', description: `Coding CLI for new sessions: ${CLI_IDS.join(', ')} (default claude-code)` },
    { name: 'working-dir', value: 'DIR', description: 'Folder new sessions start in (default ~)' },
    { name: 'name', value: 'NAME', description: 'Short name of the bot in logs and status (default from the CLI)' },
    { name: 'yes', short: 'y', description: 'Ask nothing: take flags and defaults (for scripts)' },
  ],
  run: (ctx) => runSetup(ctx),
};

export async function runSetup(ctx: CliContext, io: { input?: NodeJS.ReadStream | NodeJS.ReadableStream; output?: NodeJS.WritableStream } = {}): Promise<number> {
  const { flags, paths, env, cmd, out, err } = ctx;
  const existing = readRawConfig(paths.config);
  if (!existing.ok) {
    err(`larkmux setup: ${existing.message}`);
    return EXIT.failure;
  }
  if (secretFlagsGiven(flags).length > 1) {
    err('larkmux setup: give one of --app-secret-stdin, --app-secret-env or --app-secret');
    return EXIT.usage;
  }
  if (flags.scan === true && (typeof flags['app-id'] === 'string' || secretFlagsGiven(flags).length > 0)) {
    err('larkmux setup: --scan creates a new app and brings its own id and secret: leave out --app-id and the --app-secret flags');
    return EXIT.usage;
  }
  if (typeof flags['app-secret'] === 'string') {
    // Kept for old scripts; an argv is public on Linux (/proc/<pid>/cmdline), so say so every time.
    err('larkmux setup: warning: --app-secret is visible to every local user in `ps` while setup runs; use --app-secret-stdin or --app-secret-env instead');
  }
  const bots = Array.isArray(existing.raw.bots) ? (existing.raw.bots as Array<Record<string, unknown>>) : [];
  const interactive = !flags.yes;
  if (interactive) {
    out('larkmux setup: connect a Feishu/Lark bot. Press Enter to take the [default].');
    if (bots.length) out(`${paths.config} already has ${bots.length} bot(s) (${bots.map((b) => String(b?.name)).join(', ')}); they are kept.`);
  }
  // --app-secret-stdin reads its line through the same prompter (quietly), so it works with --yes too.
  const prompter = interactive || flags['app-secret-stdin'] === true ? createPrompter((io.input ?? process.stdin) as NodeJS.ReadStream, (io.output ?? process.stdout) as NodeJS.WriteStream) : null;
  try {
    const answers = await gather(ctx, interactive ? prompter : null, bots, prompter);
    if (!answers.ok) {
      err(`larkmux setup: ${answers.message}`);
      return answers.code;
    }
    const a = answers.value;

    out(`Checking the credentials with ${openApiBase(a.domain)} …`);
    let check = await checkCredentials({ domain: a.domain, appId: a.appId, appSecret: a.secret.value });
    // A mistyped secret costs only the secret: every other answer is kept and the secret is asked again.
    const secretTyped = prompter && !a.scanned && secretFlagsGiven(flags).length === 0;
    for (let i = 0; !check.ok && check.secretWrong && secretTyped && i < SETUP_LIMITS.triesPerQuestion; i++) {
      err(`  ${check.message}`);
      err('  your other answers are kept; enter the app secret again:');
      const again = await secretField(ctx, prompter, null);
      if (!again.ok) {
        err(`larkmux setup: ${again.message}`);
        return again.code;
      }
      a.secret = again.value;
      out(`Checking the credentials with ${openApiBase(a.domain)} …`);
      check = await checkCredentials({ domain: a.domain, appId: a.appId, appSecret: a.secret.value });
    }
    if (!check.ok) {
      err(`larkmux setup: ${check.message}`);
      err(`${paths.config} was not changed.`);
      return EXIT.failure;
    }
    out('Credentials OK: Feishu issued a tenant access token.');

    const bot: SetupBot = { name: a.name, appId: a.appId, appSecret: a.secret.stored, domain: a.domain, cli: a.cli, workingDir: a.workingDir };
    const merged = mergeBot(existing.raw, bot);
    if (!merged.ok) {
      err(`larkmux setup: ${merged.message}`);
      return EXIT.failure;
    }
    const problems = validateMerged(merged.raw, env);
    if (problems.length) {
      err(`larkmux setup: the resulting config would be invalid; ${paths.config} was not changed:`);
      for (const p of problems) err(`  - ${p}`);
      return EXIT.failure;
    }
    writeConfigFile(paths.config, merged.raw);
    out(`${merged.replaced ? 'Updated' : 'Added'} bot "${a.name}" in ${paths.config} (mode 0600).`);
    out(a.secret.fromEnv
      ? `The secret is read from $${a.secret.fromEnv} when larkmux starts: export it in the daemon's environment.`
      : 'The secret is stored in that file; to keep it out of the file, run setup again with --app-secret-env NAME.');
    const entry = (merged.raw.bots as Array<Record<string, unknown>>).find((b) => b.appId === a.appId) ?? {};
    out('');
    for (const line of consoleChecklist({ appId: a.appId, domain: a.domain, events: entry.events === 'webhook' ? 'webhook' : 'websocket' })) out(line);
    out('');
    const parsed = parseConfig(merged.raw, { ...env, ...(a.secret.fromEnv ? { [a.secret.fromEnv]: a.secret.value } : {}) });
    const configured = parsed.ok ? parsed.config.bots.find((b) => b.appId === a.appId) : undefined;
    if (configured && configured.allowedUsers.length === 0 && configured.allowedChats.length === 0) {
      out(`Nobody is allowed to talk to this bot yet: \`${cmd} start\` prints a one-time pairing code (also in \`${cmd} status\`);`);
      out('send it to the bot in a direct chat to become its owner.');
    }
    const state = await daemonState(paths);
    const { program, install } = cliInstallFor(a.cli as CliSpec);
    if (!which(program, env) && !(program.includes('/') && existsSync(program))) {
      out(`warning: ${program} (the ${a.cli} CLI) is not on PATH here, so sessions cannot start; install it with: ${install}`);
    }
    out(state.running ? `larkmux is running: \`${cmd} restart\` to load the new config.` : `Start it with \`${cmd} start\`.`);
    return EXIT.ok;
  } finally {
    prompter?.dispose();
  }
}

/** Collects every answer: a flag wins, then (interactive) a question, then (--yes) the default. */
async function gather(ctx: CliContext, prompter: Prompter | null, bots: Array<Record<string, unknown>>, stdin: Prompter | null): Promise<Field<Answers>> {
  const { flags } = ctx;
  const flag = (name: string): string | undefined => (typeof flags[name] === 'string' ? (flags[name] as string).trim() : undefined);

  /** One question with a default and a validator; asks again on a bad answer (a bad flag is an error at once). */
  async function field(label: string, flagName: string, def: string | undefined, check: (v: string) => string | null, onEnter?: string): Promise<Field<string>> {
    const given = flag(flagName);
    if (given !== undefined) {
      const problem = check(given);
      return problem ? { ok: false, code: EXIT.usage, message: `--${flagName}: ${problem}` } : { ok: true, value: given };
    }
    if (!prompter) {
      if (def === undefined) return { ok: false, code: EXIT.usage, message: `--${flagName} is required with --yes` };
      return { ok: true, value: def };
    }
    for (let i = 0; i < SETUP_LIMITS.triesPerQuestion; i++) {
      const answer = await prompter.ask(`${label}${def !== undefined ? ` [${def}]` : ''}: `);
      if (answer === null) return { ok: false, code: EXIT.failure, message: 'input ended before setup was complete; nothing was written' };
      if (answer === '' && onEnter !== undefined) return { ok: true, value: onEnter };
      const value = answer === '' && def !== undefined ? def : answer;
      const problem = value === '' ? 'an answer is needed' : check(value);
      if (!problem) return { ok: true, value };
      ctx.err(`  ${problem}`);
    }
    return { ok: false, code: EXIT.usage, message: `no valid answer for "${label}"; nothing was written` };
  }

  // Enter at the first question means "create the app by scanning", unless a secret flag says an app exists already.
  const scanOffered = !!prompter && secretFlagsGiven(flags).length === 0;
  const appId = flags.scan === true
    ? { ok: true as const, value: SCAN_CHOSEN }
    : await field(scanOffered ? 'App ID (cli_…) of an existing app, or press Enter to create a new app by scanning' : 'App ID (cli_…)', 'app-id', undefined,
      (v) => (APP_ID_RE.test(v) ? null : 'an app id is cli_ followed by 16 hex digits (Credentials & Basic Info)'), scanOffered ? SCAN_CHOSEN : undefined);
  if (!appId.ok) return appId;
  let made: { appId: string; appSecret: string; domain: string } | null = null;
  if (appId.value === SCAN_CHOSEN) {
    const scan = await scanForApp(ctx, prompter ?? stdin);
    if (!scan.ok) return scan;
    made = scan.value;
  }
  const known = bots.find((b) => b?.appId === (made?.appId ?? appId.value));

  const secret: Field<Answers['secret']> = made ? { ok: true, value: { stored: made.appSecret, value: made.appSecret } } : await secretField(ctx, prompter, stdin);
  if (!secret.ok) return secret;
  const knownDomain = typeof known?.domain === 'string' ? known.domain : 'feishu';
  // A scanned app's platform is known (the tenant's brand); --domain still wins (a private deployment).
  const domain = made && flag('domain') === undefined ? { ok: true as const, value: made.domain } : await field('Domain: feishu, lark, or a base URL', 'domain', knownDomain, validDomain);
  if (!domain.ok) return domain;
  const knownCli = typeof known?.cli === 'string' ? known.cli : 'claude-code';
  const cli = await field(`CLI (${CLI_IDS.join(', ')})`, 'cli', knownCli, (v) => ((CLI_IDS as readonly string[]).includes(v) ? null : `choose one of ${CLI_IDS.join(', ')}`));
  if (!cli.ok) return cli;
  const knownDir = typeof known?.workingDir === 'string' ? known.workingDir : '~';
  const workingDir = await field('Working directory for new sessions', 'working-dir', knownDir, () => null);
  if (!workingDir.ok) return workingDir;
  const taken = new Set(bots.filter((b) => b !== known).map((b) => String(b?.name)));
  let defName = typeof known?.name === 'string' ? known.name : (DEFAULT_NAME[cli.value] ?? 'bot');
  for (let n = 2; taken.has(defName); n++) defName = `${DEFAULT_NAME[cli.value] ?? 'bot'}${n}`;
  const name = await field('Bot name (for logs and status)', 'name', defName, (v) =>
    !/^[A-Za-z0-9_.-]{1,64}$/.test(v) ? 'use letters, digits, "_", "." or "-"' : taken.has(v) ? `"${v}" is already another bot's name` : null);
  if (!name.ok) return name;
  return { ok: true, value: { appId: made?.appId ?? appId.value, secret: secret.value, domain: domain.value, cli: cli.value, workingDir: workingDir.value, name: name.value, scanned: !!made } };
}

/** Scan-to-create; Ctrl+C (a signal, or typed into the question prompt's terminal) cancels it and nothing is written. */
async function scanForApp(ctx: CliContext, prompter: Prompter | null): Promise<Field<{ appId: string; appSecret: string; domain: string }>> {
  const { flags, out, env } = ctx;
  const domainFlag = typeof flags.domain === 'string' ? flags.domain.trim() : undefined;
  const hosts = accountsHost(domainFlag, typeof flags['accounts-url'] === 'string' ? flags['accounts-url'].trim() : undefined);
  if (!hosts.ok) return { ok: false, code: EXIT.usage, message: hosts.problem };
  const locale = cliLocale(env);
  const cancel = new AbortController();
  const onInterrupt = () => cancel.abort();
  process.once('SIGINT', onInterrupt);
  const stopListening = prompter?.onInterrupt(onInterrupt);
  try {
    const made = await createAppByScan({ host: hosts.host, larkHost: hosts.larkHost, locale, signal: cancel.signal, qrColour: process.stdout.isTTY === true, say: out });
    if (!made.ok) return { ok: false, code: made.reason === 'cancelled' ? SETUP_LIMITS.interruptedExit : EXIT.failure, message: made.message };
    out(t(locale, 'setup.scan.created', { appId: made.appId, domain: domainFlag ?? made.domain }));
    return { ok: true, value: { appId: made.appId, appSecret: made.appSecret, domain: made.domain } };
  } finally {
    process.off('SIGINT', onInterrupt);
    stopListening?.();
  }
}

/** The secret flags given (--app-secret, --app-secret-env, --app-secret-stdin): at most one may be, and any means an app exists. */
function secretFlagsGiven(flags: CliContext['flags']): string[] {
  return [
    typeof flags['app-secret'] === 'string' ? 'app-secret' : '',
    typeof flags['app-secret-env'] === 'string' ? 'app-secret-env' : '',
    flags['app-secret-stdin'] === true ? 'app-secret-stdin' : '',
  ].filter(Boolean);
}

/** The secret: from the environment (stored as `${NAME}`) or literal; never echoed. */
async function secretField(ctx: CliContext, prompter: Prompter | null, stdin: Prompter | null): Promise<Field<Answers['secret']>> {
  const { flags, env } = ctx;
  const fromEnv = (name: string): Field<Answers['secret']> => {
    if (!ENV_NAME.test(name)) return { ok: false, code: EXIT.usage, message: `"${name}" is not an environment variable name` };
    const value = env[name];
    if (!value) return { ok: false, code: EXIT.failure, message: `environment variable ${name} is not set; export it (the app secret) and run setup again` };
    return { ok: true, value: { stored: `\${${name}}`, value, fromEnv: name } };
  };
  if (typeof flags['app-secret-env'] === 'string') return fromEnv(flags['app-secret-env']);
  if (flags['app-secret-stdin'] === true && stdin) {
    const line = await stdin.ask('', { secret: true });
    return line ? { ok: true, value: { stored: line, value: line } } : { ok: false, code: EXIT.usage, message: '--app-secret-stdin: stdin held no secret (give it as the first line)' };
  }
  if (typeof flags['app-secret'] === 'string') {
    const v = flags['app-secret'];
    return v ? { ok: true, value: { stored: v, value: v } } : { ok: false, code: EXIT.usage, message: '--app-secret is empty' };
  }
  if (!prompter) return { ok: false, code: EXIT.usage, message: '--app-secret-stdin or --app-secret-env NAME is required with --yes' };
  for (let i = 0; i < SETUP_LIMITS.triesPerQuestion; i++) {
    const answer = await prompter.ask('App secret (typing is hidden), or $NAME to read it from an environment variable: ', { secret: true });
    if (answer === null) return { ok: false, code: EXIT.failure, message: 'input ended before setup was complete; nothing was written' };
    if (!answer) {
      ctx.err('  an app secret is needed (Credentials & Basic Info → App Secret)');
      continue;
    }
    const ref = ENV_REF_ANSWER.exec(answer);
    if (!ref) return { ok: true, value: { stored: answer, value: answer } };
    const r = fromEnv(ref[1]!);
    if (r.ok) return r;
    ctx.err(`  ${r.message}`);
  }
  return { ok: false, code: EXIT.usage, message: 'no usable app secret; nothing was written' };
}
