// `larkmux console revoke`: signs every browser out of the local console (cookies, unused links, open connections).
import { controlCall } from '../../platform/control-client.js';
import { EXIT, type CliCommand } from '../types.js';

export const consoleCommand: CliCommand = {
  name: 'console',
  summary: '`revoke` signs every browser out of the local console; `start` prints a new link',
  params: 'revoke',
  flags: [],
  async run({ args, paths, cmd, out, err }) {
    if (args[0] !== 'revoke') {
      err(`usage: ${cmd} console revoke`);
      return EXIT.usage;
    }
    const res = await controlCall(paths.controlSocket, { cmd: 'console_revoke' });
    if (!res.ok) {
      err(res.code === 'not_running' ? `larkmux is not running, so no browser is signed in to the console` : res.message);
      return res.code === 'not_running' ? EXIT.notRunning : EXIT.failure;
    }
    const { cookies, connections } = res.data as { cookies: number; connections: number };
    out(`console: signed out ${cookies} browser(s), closed ${connections} connection(s). Run \`${cmd} start\` for a new link.`);
    return EXIT.ok;
  },
};
