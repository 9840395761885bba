// `larkmux hosts [list|add|check]`: the other machines larkmux reaches over OpenSSH (DESIGN §12).
import { hostsAdd } from '../hosts/add.js';
import { hostsCheck } from '../hosts/check.js';
import { hostsList } from '../hosts/list.js';
import { EXIT, type CliCommand, type FlagSpec } from '../types.js';

/** `add` takes the first three, `list` and `check` the last. */
const HOSTS_FLAGS: FlagSpec[] = [
  { name: 'port', value: 'N', description: 'with add: the sshd port (default 22)' },
  { name: 'identity', value: 'FILE', description: 'with add: the private key to log in with' },
  { name: 'accept', value: 'SHA256:…', description: 'with add: pin the host key only if it has this fingerprint (needed without a terminal)' },
  { name: 'json', description: 'with list or check: print machine-readable JSON' },
];

export const hosts: CliCommand = {
  name: 'hosts',
  summary: 'Other machines over SSH: list them, add one (pins its key), check one',
  params: '[list | add NAME user@host | check NAME]',
  flags: HOSTS_FLAGS,
  async run(ctx) {
    const sub = ctx.args[0] ?? 'list';
    if (sub === 'list' && ctx.args.length <= 1) return hostsList(ctx);
    if (sub === 'add') return hostsAdd(ctx);
    if (sub === 'check' && ctx.args.length <= 2) return hostsCheck(ctx, ctx.args[1]);
    ctx.err(`larkmux hosts: unknown use "${ctx.args.join(' ')}"; use \`${ctx.cmd} hosts\`, \`${ctx.cmd} hosts add NAME user@host\` or \`${ctx.cmd} hosts check NAME\``);
    return EXIT.usage;
  },
};
