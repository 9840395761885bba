// `larkmux stop`: graceful stop; workers detach and every CLI keeps running in tmux.
import { stopDaemon } from '../daemon-process.js';
import { EXIT, type CliCommand } from '../types.js';

export const stop: CliCommand = {
  name: 'stop',
  summary: 'Stop the daemon (CLIs keep running in tmux)',
  flags: [],
  async run({ paths, out, err }) {
    const res = await stopDaemon(paths);
    if (!res.ok) {
      err(res.message);
      return EXIT.failure;
    }
    out(res.pid ? `larkmux stopped (pid ${res.pid}); tmux sessions keep running.` : 'larkmux is not running.');
    return EXIT.ok;
  },
};
