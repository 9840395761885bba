// `larkmux stop`: graceful stop; workers detach and every CLI keeps running in tmux.
import { stopDaemon } from '../daemon-process.js';
import { EXIT, type CliCommand } from '../types.js';

export const stop: CliCommand = {
  name: 'stop',
  summary: 'Stop the daemon (CLIs keep running in tmux)',
  flags: [],
  async run({ paths, t, out, err }) {
    const res = await stopDaemon(paths);
    if (!res.ok) {
      err(res.message);
      return EXIT.failure;
    }
    out(res.pid ? t('cli.stopped', { pid: res.pid }) : t('cli.stoppedNotRunning'));
    return EXIT.ok;
  },
};
