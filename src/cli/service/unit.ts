// The systemd user unit that runs larkmux as a service: pure text from the paths it needs, so it is table-tested.
import { join } from 'node:path';

export interface ServiceUnitInput {
  /** Absolute path of the node binary (systemd runs no shell and has its own PATH). */
  node: string;
  /** Absolute, symlink-resolved path of bin/larkmux.js of this installation. */
  script: string;
  /** LARKMUX_HOME the service uses: the one this command ran with, so the service serves the same bots and sessions. */
  larkmuxHome: string;
  /** PATH at install time: the daemon finds tmux and the coding CLIs (often under ~/.local or an npm prefix) on it. */
  path: string | undefined;
}

export const SERVICE_UNIT_NAME = 'larkmux.service';

/** Where systemd looks for a user's own units. */
export function serviceUnitPath(env: NodeJS.ProcessEnv, home: string): string {
  const config = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.startsWith('/') ? env.XDG_CONFIG_HOME : join(home, '.config');
  return join(config, 'systemd', 'user', SERVICE_UNIT_NAME);
}

/**
 * One word of a unit line, quoted the way systemd reads it: `%` is a specifier and `$` a variable in ExecStart, so both
 * are doubled; backslash and double quote are escaped inside the quotes. A path with spaces or quotes stays one word.
 */
export function unitWord(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%').replace(/\$/g, '$$$$')}"`;
}

/** An `Environment=` assignment (no `$` expansion there, but `%` specifiers and quoting still apply). */
function environmentLine(name: string, value: string): string {
  return `Environment="${name}=${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/%/g, '%%')}"`;
}

export function serviceUnitText(u: ServiceUnitInput): string {
  return [
    '# Written by `larkmux service install`; `larkmux service remove` deletes it.',
    '[Unit]',
    'Description=larkmux (Feishu/Lark chats and coding CLIs in tmux)',
    'After=network-online.target',
    '',
    '[Service]',
    'Type=simple',
    `ExecStart=${unitWord(u.node)} ${unitWord(u.script)} start --foreground`,
    environmentLine('LARKMUX_HOME', u.larkmuxHome),
    ...(u.path ? [environmentLine('PATH', u.path)] : []),
    // The CLIs run in tmux, outside the daemon: stopping or restarting the service must not kill them.
    'KillMode=process',
    'Restart=on-failure',
    'RestartSec=5',
    // 78 is a bad config.json (EX_CONFIG): restarting cannot fix it, so the unit stops and `systemctl status` shows why.
    'RestartPreventExitStatus=78',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}
