// The local console, assembled: its pseudo bot config, adapter, login and web routes (DESIGN §11).
import { BotConfigSchema, type BotConfig, type Config, type ConsoleConfig } from '../../../shared/config.js';
import { consoleCliChoices, defaultConsoleCli } from '../../../shared/console-cli.js';
import { consolePageUrl } from '../../../shared/console-protocol.js';
import type { Logger } from '../../../platform/log.js';
import { expandHome } from '../../../platform/paths.js';
import { consoleLocale, type Locale } from '../../../shared/i18n.js';
import { CONSOLE_APP_ID, CONSOLE_USER_ID, ConsoleAdapter } from './console-adapter.js';
import { ConsoleAuth } from './console-auth.js';
import { inboundLimitsOf } from '../media-limits.js';
import { ConsoleServer, type ConsoleServerOptions } from './console-server.js';

export { CONSOLE_APP_ID, CONSOLE_USER_ID, ConsoleAdapter } from './console-adapter.js';
export { ConsoleAuth } from './console-auth.js';
export { ConsoleServer } from './console-server.js';

/**
 * The console as a bot: every BotConfig default, the pseudo app id, and the console user as its only (allowlisted)
 * user, so it is the owner without pairing. Parsed with a placeholder Feishu id so the defaults come from the schema.
 */
export function consoleBotConfig(settings: Pick<ConsoleConfig, 'cli' | 'workingDir' | 'projects' | 'locale'> & { env?: Record<string, string> }, onPath: (program: string) => boolean, bots: readonly Pick<BotConfig, 'cli'>[] = []): BotConfig {
  const base = BotConfigSchema.parse({ name: 'console', appId: 'cli_0000000000000000', appSecret: 'unused' });
  return {
    ...base,
    appId: CONSOLE_APP_ID,
    appSecret: '',
    // The console's own setting, else what the first configured bot runs, else the first coding CLI on PATH.
    cli: settings.cli ?? bots[0]?.cli ?? defaultConsoleCli(onPath),
    workingDir: settings.workingDir,
    projects: settings.projects,
    allowedUsers: [CONSOLE_USER_ID],
    env: settings.env ?? {},
    ...(settings.locale ? { locale: settings.locale } : {}),
  };
}

/** The folders a new topic may start in: the working folder first, then the listed projects. */
export function consoleProjects(bot: Pick<BotConfig, 'workingDir' | 'projects'>): { label: string; path: string }[] {
  const paths = [...new Set([bot.workingDir, ...bot.projects].map((p) => expandHome(p)))];
  return paths.map((path) => ({ label: path.split('/').filter(Boolean).pop() ?? path, path }));
}

/** The one-time login link printed for a person (`larkmux start`): the console page with a login token. */
export function consoleLoginUrl(web: Pick<Config['web'], 'host' | 'publicUrl'>, port: number, token: string): string {
  return `${consolePageUrl(web, port)}?token=${token}`;
}

export interface LocalConsole {
  bot: BotConfig;
  adapter: ConsoleAdapter;
  auth: ConsoleAuth;
  server: ConsoleServer;
}

export function createLocalConsole(opts: {
  home: string;
  settings: ConsoleConfig;
  config: Config;
  log: Logger;
  onPath: (program: string) => boolean;
  server: Omit<ConsoleServerOptions, 'adapter' | 'auth' | 'log'>;
}): LocalConsole {
  const bot = consoleBotConfig(opts.settings, opts.onPath, opts.config.bots);
  const log = opts.log.child({ bot: 'console' });
  const adapter = new ConsoleAdapter({ logger: log, home: opts.home, clis: consoleCliChoices(bot.cli, opts.config.bots, opts.onPath), projects: consoleProjects(bot), uploadBytes: inboundLimitsOf(bot.attachments).maxFileBytes });
  const auth = new ConsoleAuth();
  // With no console.locale the bot speaks the language of the page that last connected (its WebSocket's
  // Accept-Language; cards, notices, toasts and the web terminal included), so the page is never half one language
  // and half another. Decided once per connection, never by other requests (pictures, static files, uploads).
  const localeFor = (language: string | undefined) => consoleLocale(opts.settings.locale, language);
  const adoptLocale = (locale: Locale) => {
    if (!opts.settings.locale) bot.locale = locale;
  };
  const server = new ConsoleServer({ adapter, auth, log, allowRemote: opts.settings.allowRemote, localeFor, adoptLocale, ...opts.server });
  return { bot, adapter, auth, server };
}
