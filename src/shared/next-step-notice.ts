// What a user should do next when the daemon has nothing to serve yet: said by the daemon (status) and by
// `larkmux start`, which must not load the daemon (the Feishu SDK, the worker pool) to print one line.
import type { Config } from './config.js';

/** The next step, or undefined when a bot is configured. */
export function nextStepNotice(config: Config, configExists: boolean, configPath: string, cmd: string): string | undefined {
  if (config.bots.length > 0) return undefined;
  return configExists
    ? `no bot is configured in ${configPath}: add one under "bots" (see docs/configuration.md) or run \`${cmd} setup\`, then \`${cmd} restart\``
    : `no config yet: run \`${cmd} setup\` to connect a Feishu/Lark bot (it writes ${configPath}), then \`${cmd} restart\``;
}
