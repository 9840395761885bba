// `larkmux restart`: stop then start; sessions are restored from the store and re-attached lazily.
import { EXIT, type CliCommand } from '../types.js';
import { start } from './start.js';
import { stop } from './stop.js';

export const restart: CliCommand = {
  name: 'restart',
  summary: 'Restart the daemon (CLIs keep running in tmux)',
  flags: [],
  async run(ctx) {
    const stopped = await stop.run(ctx);
    if (stopped !== EXIT.ok) return stopped;
    return start.run({ ...ctx, flags: {} });
  },
};
