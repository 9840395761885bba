// `larkmux start`: the daemon in the background (or in the foreground for systemd and tests). In the background it waits
// until each bot has connected or failed, then says which, and prints the pairing code of a bot nobody owns yet.
import { configFileExposure, readConfigFile } from '../../platform/config-file.js';
import { controlCall } from '../../platform/control-client.js';
import { ConsoleLinkSchema, type DaemonStatus } from '../../shared/control-protocol.js';
import type { LarkmuxPaths } from '../../platform/paths.js';
import { nextStepNotice } from '../../shared/next-step-notice.js';
import { talkScopeWarnings } from '../../shared/talk-scope.js';
import { daemonState, startDetached, stopDaemon } from '../daemon-process.js';
import { isAlive, readPid } from '../../platform/pid-lock.js';
import type { Translate } from '../../shared/i18n.js';
import { EXIT, type CliCommand } from '../types.js';

export const START_WAIT = {
  /** A long connection answers within seconds; a refused secret is told at once. Past this, "still connecting". */
  botsSettleMs: 20_000,
  pollMs: 200,
} as const;

type BotLine = DaemonStatus['bots'][number];
const settled = (b: BotLine) => b.state !== 'connecting' && b.state !== 'stopped';

/**
 * Past its start-up: the stored sessions are registered and the web port listens (or is reported off). The control
 * socket answers before both (issue 14's fast start), and with no bot configured "every bot settled" holds at once,
 * so without this the console link was asked for before the web port listened and silently left out.
 */
const startedUp = (st: DaemonStatus) =>
  st.restore?.state !== 'restoring' && (st.webUrl !== null || st.webProblem !== undefined);

/** No bot and the console cannot be opened (the web port is off): nobody can reach this daemon (issue 31 item 12). */
export const noWayIn = (st: DaemonStatus) => st.bots.length === 0 && st.console?.state === 'unavailable';

/** The web port's problem and what it means for the console, to stderr; true when nobody can reach the daemon. */
function reportWebPort(st: DaemonStatus, err: (line: string) => void): boolean {
  if (!st.webProblem) return false;
  err(`warning: ${st.webProblem}`);
  if (st.console?.state !== 'unavailable') return false;
  if (noWayIn(st)) err('console: unavailable, and with no bot configured it is the only way in');
  else err('console: unavailable until the web port listens (the bots work as usual)');
  return noWayIn(st);
}

/** The daemon's status once it has started up and every bot is connected or failed (or the wait ran out). */
async function waitForBots(paths: Parameters<typeof daemonState>[0]): Promise<DaemonStatus | null> {
  const deadline = Date.now() + START_WAIT.botsSettleMs;
  let last: DaemonStatus | null = null;
  while (Date.now() < deadline) {
    const st = await daemonState(paths);
    if (!st.running) {
      // A status call can time out while a busy machine imports the Lark SDK: only a daemon that is gone ends the wait.
      const pid = readPid(paths.pidFile);
      if (!pid || !isAlive(pid)) return last;
    } else {
      last = st.status;
      if (startedUp(last) && last.bots.every(settled)) return last;
    }
    await new Promise((r) => setTimeout(r, START_WAIT.pollMs));
  }
  return last;
}

export const start: CliCommand = {
  name: 'start',
  summary: 'Start the daemon in the background',
  flags: [{ name: 'foreground', short: 'f', description: 'Run in this terminal (for systemd, containers and debugging)' }],
  async run({ flags, paths, env, cmd, t, out, err }) {
    const cfg = readConfigFile(paths.config, env);
    // Said first, so that it is seen even when the file has mistakes too (issue 31 item 10).
    const exposure = configFileExposure(paths.config);
    if (exposure && !exposure.ok) err(`warning: ${exposure.problem}; fix: ${exposure.fix}`);
    if (!cfg.ok) {
      printConfigErrors(paths.config, cfg.errors, err);
      // In the foreground this is the daemon's own exit (systemd's RestartPreventExitStatus=78 stops the restart loop).
      return flags.foreground ? EXIT.badConfig : EXIT.failure;
    }
    if (flags.foreground) {
      const { runDaemon } = await import('../../daemon/main.js');
      await runDaemon({ ...env, LARKMUX_HOME: paths.home }, { printConsoleLink: true });
      return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
    }
    const state = await daemonState(paths);
    if (state.running) {
      out(t('cli.alreadyRunning', { pid: state.status.pid }));
      printBots(state.status, cmd, out);
      const unreachable = reportWebPort(state.status, err);
      await printConsoleLink(paths, cmd, t, out);
      return unreachable ? EXIT.failure : EXIT.ok;
    }
    const res = await startDetached(paths, env);
    if (!res.ok && res.code === 'already_running') {
      out(t('cli.alreadyRunning', { pid: res.pid }));
      await printConsoleLink(paths, cmd, t, out);
      return EXIT.ok;
    }
    if (!res.ok) {
      err(t('cli.startFailed', { message: res.message }));
      err(t('cli.startFailedSee', { log: paths.logFile, out: `${paths.logs}/daemon.out` }));
      return EXIT.failure;
    }
    const after = await waitForBots(paths);
    const failed = after?.bots.filter((b) => b.state === 'failed') ?? [];
    if (failed.length && after && failed.length === after.bots.length) out(t('cli.runningNoBot', { pid: res.pid }));
    else if (failed.length) out(t('cli.startedSomeBotsFailed', { pid: res.pid, failed: failed.length, total: after?.bots.length ?? failed.length }));
    else out(t('cli.started', { pid: res.pid }));
    if (after) printBots(after, cmd, out);
    out(t('cli.logs', { log: paths.logFile, cmd }));
    if (after?.webUrl) out(`web terminal: ${after.webUrl}`);
    for (const w of talkScopeWarnings(cfg.config.bots)) out(`warning: ${w}`);
    if (after && reportWebPort(after, err)) {
      // A daemon nobody can reach would only make the next `start` say "already running": stop it again.
      const stopped = await stopDaemon(paths);
      err(stopped.ok ? `larkmux stopped again (pid ${res.pid}); fix the web port, then run ${cmd} start` : stopped.message);
      return EXIT.failure;
    }
    const notice = nextStepNotice(cfg.config, cfg.exists, paths.config, cmd);
    if (notice) out(`next: ${notice}`);
    await printConsoleLink(paths, cmd, t, out);
    return failed.length ? EXIT.failure : EXIT.ok;
  },
};

/** Every mistake in config.json, one per line (shared with `restart`, which checks before it stops anything). */
export function printConfigErrors(configPath: string, errors: readonly string[], err: (line: string) => void): void {
  err(`${configPath} is invalid (${errors.length} ${errors.length === 1 ? 'problem' : 'problems'}):`);
  for (const e of errors) err(`  - ${e}`);
}

/** A line per bot: connected, or failed with the reason and the fix; then the pairing code of an unowned bot. */
function printBots(st: DaemonStatus, cmd: string, out: (l: string) => void): void {
  for (const b of st.bots) {
    if (b.state === 'failed') {
      out(`  bot "${b.name}" (${b.appId}): FAILED: ${b.detail ?? 'could not connect'}`);
      out(`    fix: check the app id and secret (${cmd} setup), then ${cmd} restart`);
    } else out(`  bot "${b.name}" (${b.appId}): ${b.state === 'connecting' ? 'still connecting (see the log)' : b.state}`);
    if (b.pairingCode && b.state !== 'failed') {
      out(`  pairing code for "${b.name}": ${b.pairingCode}`);
      out('    nobody may use this bot yet: send this code to the bot in a direct chat (私聊) to become its owner');
    }
  }
}

/** The local console's one-time link, last so it is the line a newcomer sees (each run prints a fresh one). */
async function printConsoleLink(paths: LarkmuxPaths, cmd: string, t: Translate, out: (line: string) => void): Promise<void> {
  const res = await controlCall(paths.controlSocket, { cmd: 'console_link' });
  if (!res.ok) return;
  const link = ConsoleLinkSchema.safeParse(res.data);
  if (link.success) out(t('cli.consoleLink', { url: link.data.url, cmd }));
}
