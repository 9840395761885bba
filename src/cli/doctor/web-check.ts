// Doctor lines for the web port (free, held by whom, or listening by this daemon) and the local console (off, on and
// where, or unavailable because the web port is not listening) — issue 31 item 12, issue 32 item 9.
import { findPortHolder, probePort } from '../../platform/port-holder.js';
import { consoleSettings, type Config } from '../../shared/config.js';
import { consolePageUrl } from '../../shared/console-protocol.js';
import type { DaemonStatus } from '../../shared/control-protocol.js';
import { FREE_PORT_FIX, describeHolder, portTaken, webPortProblem, webProblemReason } from '../../shared/web-port-problem.js';
import { larkmuxCommand } from '../../platform/larkmux-command.js';
import { daemonState } from '../daemon-process.js';
import type { DoctorCheck, DoctorLine, Level } from './types.js';

const portFix = (cmd: string): string => `${FREE_PORT_FIX}, or stop the program that holds it; then run \`${cmd} restart\``;

/** Off → OK; with no bot the web port is the only way in, so losing it is a FAIL rather than a WARN. */
const severity = (config: Config): Level => (consoleSettings(config) && config.bots.length === 0 ? 'FAIL' : 'WARN');

function consoleLine(config: Config, page: string | null, why: string | null, cmd: string): DoctorLine {
  if (!consoleSettings(config)) return { level: 'OK', label: 'console', detail: 'off (a bot is configured and "console" is not set)' };
  if (page) return { level: 'OK', label: 'console', detail: `on: ${page} (\`${cmd} start\` prints a one-time link to it)` };
  return { level: severity(config), label: 'console', detail: `unavailable: ${why ?? 'the web port is not listening'}`, fix: portFix(cmd) };
}

function runningLines(config: Config, st: DaemonStatus, cmd: string): DoctorLine[] {
  if (st.webUrl) {
    const port = Number(new URL(st.webUrl).port) || config.web.port;
    return [
      { level: 'OK', label: 'web port', detail: `listening by this daemon (pid ${st.pid}) on ${st.webUrl}` },
      st.console ? consoleLine(config, consolePageUrl(config.web, port), null, cmd) : { level: 'OK', label: 'console', detail: 'off in the running daemon' },
    ];
  }
  if (!st.webProblem) return [{ level: 'OK', label: 'web port', detail: `the daemon (pid ${st.pid}) is still starting` }];
  const why = webProblemReason(st.webProblem);
  const consoleOff: DoctorLine = { level: 'OK', label: 'console', detail: 'off in the running daemon' };
  return [{ level: severity(config), label: 'web port', detail: `not listening because ${why}`, fix: portFix(cmd) }, st.console ? consoleLine(config, null, 'the web port is not listening', cmd) : consoleOff];
}

export const webCheck: DoctorCheck = async ({ paths, env, config }) => {
  if (!config) return []; // the config check says why
  const cmd = larkmuxCommand(env);
  const state = await daemonState(paths);
  if (state.running) return runningLines(config, state.status, cmd);
  const { host, port } = config.web;
  if (port === 0) return [{ level: 'OK', label: 'web port', detail: 'any free port (web.port is 0), chosen at start' }, consoleLine(config, consolePageUrl(config.web, port).replace(':0/', ':<port>/'), null, cmd)];
  const probe = await probePort(host, port);
  if (probe.free) return [{ level: 'OK', label: 'web port', detail: `${host}:${port} is free (larkmux is not running)` }, consoleLine(config, consolePageUrl(config.web, port), null, cmd)];
  const held = portTaken(probe);
  const detail = held ? `port ${port} on ${host} is held by ${describeHolder(findPortHolder(port))}` : webProblemReason(webPortProblem(probe, host, port, null));
  return [{ level: severity(config), label: 'web port', detail, fix: portFix(cmd) }, consoleLine(config, null, held ? `port ${port} is taken` : 'the web port cannot be used', cmd)];
};
