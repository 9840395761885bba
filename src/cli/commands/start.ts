// `larkmux start`: the daemon in the background (or in the foreground for systemd and tests).
import { readConfigFile } from '../../shared/config-file.js';
import { nextStepNotice } from '../../daemon/daemon.js';
import { daemonState, startDetached } from '../daemon-process.js';
import { EXIT, type CliCommand } from '../types.js';

export const start: CliCommand = {
  name: 'start',
  summary: 'Start the daemon in the background',
  flags: [{ name: 'foreground', short: 'f', description: 'Run in this terminal (for systemd, containers and debugging)' }],
  async run({ flags, paths, env, out, err }) {
    const cfg = readConfigFile(paths.config, env);
    if (!cfg.ok) {
      err(`${paths.config} is invalid:`);
      for (const e of cfg.errors) err(`  - ${e}`);
      // In the foreground this is the daemon's own exit (systemd's RestartPreventExitStatus=78 stops the restart loop).
      return flags.foreground ? EXIT.badConfig : EXIT.failure;
    }
    if (flags.foreground) {
      const { runDaemon } = await import('../../daemon/main.js');
      await runDaemon({ ...env, LARKMUX_HOME: paths.home });
      return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
    }
    const state = await daemonState(paths);
    if (state.running) {
      out(`larkmux is already running (pid ${state.status.pid}).`);
      return EXIT.ok;
    }
    const res = await startDetached(paths, env);
    if (!res.ok && res.code === 'already_running') {
      out(`larkmux is already running (pid ${res.pid}).`);
      return EXIT.ok;
    }
    if (!res.ok) {
      err(`larkmux failed to start: ${res.message}`);
      err(`see ${paths.logFile} and ${paths.logs}/daemon.out`);
      return EXIT.failure;
    }
    out(`larkmux started (pid ${res.pid}).`);
    out(`logs: ${paths.logFile}  (larkmux logs -f)`);
    const after = await daemonState(paths);
    if (after.running && after.status.webUrl) out(`web terminal: ${after.status.webUrl}`);
    if (after.running && after.status.notice?.includes('web terminal off')) out(`warning: ${after.status.notice}`);
    const notice = nextStepNotice(cfg.config, cfg.exists, paths.config);
    if (notice) out(`next: ${notice}`);
    return EXIT.ok;
  },
};
