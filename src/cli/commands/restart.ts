// `larkmux restart`: stop then start; sessions are restored from the store and re-attached lazily. The config is
// checked first: a typo must not stop a working daemon and start nothing (issue 31 item 11).
import { readConfigFile } from '../../platform/config-file.js';
import { EXIT, type CliCommand } from '../types.js';
import { printConfigErrors, start } from './start.js';
import { stop } from './stop.js';
import { daemonState } from '../daemon-process.js';

export const restart: CliCommand = {
  name: 'restart',
  summary: 'Restart the daemon (CLIs keep running in tmux); checks config.json first',
  flags: [],
  async run(ctx) {
    const cfg = readConfigFile(ctx.paths.config, ctx.env);
    if (!cfg.ok) {
      printConfigErrors(ctx.paths.config, cfg.errors, ctx.err);
      const state = await daemonState(ctx.paths);
      if (state.running) ctx.err(ctx.t('cli.restartRefused', { pid: state.status.pid, cmd: ctx.cmd }));
      return EXIT.failure;
    }
    const stopped = await stop.run(ctx);
    if (stopped !== EXIT.ok) return stopped;
    return start.run({ ...ctx, flags: {} });
  },
};
