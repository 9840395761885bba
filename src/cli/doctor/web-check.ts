// Doctor lines for the web port (free, held by whom, or listening by this daemon) and the local console (off, on and
// where, or unavailable because the web port is not listening) — issue 31 item 12, issue 32 item 9.
import { findPortHolder, probePort } from '../../platform/port-holder.js';
import { consoleSettings, type Config } from '../../shared/config.js';
import { consolePageUrl } from '../../shared/console-protocol.js';
import type { DaemonStatus } from '../../shared/control-protocol.js';
import { describeHolder, portTaken, webPortProblem, webProblemReason } from '../../shared/web-port-problem.js';
import { larkmuxCommand } from '../../platform/larkmux-command.js';
import type { Translate } from '../../shared/i18n.js';
import { daemonState } from '../daemon-process.js';
import type { DoctorCheck, DoctorLine, Level } from './types.js';

/** Off → OK; with no bot the web port is the only way in, so losing it is a FAIL rather than a WARN. */
const severity = (config: Config): Level => (consoleSettings(config) && config.bots.length === 0 ? 'FAIL' : 'WARN');

function consoleLine(config: Config, page: string | null, why: string | null, cmd: string, t: Translate): DoctorLine {
  if (!consoleSettings(config)) return { level: 'OK', label: 'console', detail: t('doctor.console.off') };
  if (page) return { level: 'OK', label: 'console', detail: t('doctor.console.on', { page, cmd }) };
  return { level: severity(config), label: 'console', detail: t('doctor.console.unavailable', { why: why ?? t('doctor.console.portNotListening') }), fix: t('doctor.web.fix', { cmd }) };
}

function runningLines(config: Config, st: DaemonStatus, cmd: string, t: Translate): DoctorLine[] {
  const consoleOff: DoctorLine = { level: 'OK', label: 'console', detail: t('doctor.console.offInDaemon') };
  if (st.webUrl) {
    const port = Number(new URL(st.webUrl).port) || config.web.port;
    return [
      { level: 'OK', label: 'web port', detail: t('doctor.web.listening', { pid: st.pid, url: st.webUrl }) },
      st.console ? consoleLine(config, consolePageUrl(config.web, port), null, cmd, t) : consoleOff,
    ];
  }
  if (!st.webProblem) return [{ level: 'OK', label: 'web port', detail: t('doctor.web.starting', { pid: st.pid }) }];
  // The reason comes from src/shared/web-port-problem.ts as it is (English), inside a translated sentence.
  const why = webProblemReason(st.webProblem);
  return [{ level: severity(config), label: 'web port', detail: t('doctor.web.notListening', { why }), fix: t('doctor.web.fix', { cmd }) }, st.console ? consoleLine(config, null, t('doctor.console.portNotListening'), cmd, t) : consoleOff];
}

export const webCheck: DoctorCheck = async ({ paths, env, config, t }) => {
  if (!config) return []; // the config check says why
  const cmd = larkmuxCommand(env);
  const state = await daemonState(paths);
  if (state.running) return runningLines(config, state.status, cmd, t);
  const { host, port } = config.web;
  if (port === 0) return [{ level: 'OK', label: 'web port', detail: t('doctor.web.anyPort') }, consoleLine(config, consolePageUrl(config.web, port).replace(':0/', ':<port>/'), null, cmd, t)];
  const probe = await probePort(host, port);
  if (probe.free) return [{ level: 'OK', label: 'web port', detail: t('doctor.web.free', { host, port }) }, consoleLine(config, consolePageUrl(config.web, port), null, cmd, t)];
  const held = portTaken(probe);
  const detail = held ? t('doctor.web.heldBy', { port, host, holder: describeHolder(findPortHolder(port)) }) : webProblemReason(webPortProblem(probe, host, port, null));
  return [{ level: severity(config), label: 'web port', detail, fix: t('doctor.web.fix', { cmd }) }, consoleLine(config, null, held ? t('doctor.console.portTaken', { port }) : t('doctor.console.portUnusable'), cmd, t)];
};
