// Environment policy end to end (issue 13 findings 2 and 3): config-named secrets never reach a worker, tmux or the
// CLI, and a bot's env values reach the CLI without ever being on a command line (`ps` shows every argv to every user).
import { readdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { readPid } from '../../src/platform/pid-lock.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';
import { textsIn } from '../support/cards.js';

function parentOf(pid: string): number {
  try {
    // The command name (field 2) may hold spaces and parentheses: the fields after the last ')' are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return -1;
  }
}

/** The given pids and all their descendants (the machine is shared: other tests' daemons use the same test apps). */
function treeOf(roots: number[]): Set<number> {
  const pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  const tree = new Set(roots);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of pids) if (!tree.has(Number(p)) && tree.has(parentOf(p))) { tree.add(Number(p)); grew = true; }
  }
  return tree;
}

/** Processes (of this user, within `only` when given) whose /proc file `name` contains `needle`, as "pid: command line". */
function procsContaining(name: 'cmdline' | 'environ', needle: string, only?: Set<number>): string[] {
  const out: string[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if ((!only || only.has(Number(d))) && readFileSync(`/proc/${d}/${name}`).includes(needle)) {
        out.push(`${d}: ${readFileSync(`/proc/${d}/cmdline`).toString().replace(/\0/g, ' ').slice(0, 200)}`);
      }
    } catch { /* gone, or another user's */ }
  }
  return out;
}

describe('environment policy', () => {
  let rig: E2eRig | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
  });

  it('the app secret is in no worker, tmux or CLI environment; the bot env reaches the CLI but no command line', async () => {
    const botKey = `bot-key-${randomBytes(8).toString('hex')}`;
    rig = await startRig({ botOverrides: { env: { BOT_API_KEY: botKey } } });
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const appSecret = rig.home.env.LMX_TEST_SECRET_0!;
    // What the attacker of issue 13 sent, plus proof that the bot's own env arrived.
    const msg = await fake.injectMessage({ chatType: 'p2p', text: 'echo "leak=[$(env | grep -i secret)]" "key=$BOT_API_KEY" done-$((40+2))' });
    await fake.waitFor(() => textsIn(fake, appId, msg.chatId).some((t) => t.includes('done-42')), 60_000, 'answer');
    const answer = textsIn(fake, appId, msg.chatId).find((t) => t.includes('done-42'))!;
    expect(answer).toContain('leak=[]');
    expect(answer).toContain(`key=${botKey}`);
    // Nothing a chat user sees carries the app secret.
    expect(JSON.stringify(fake.messages)).not.toContain(appSecret);
    // Only the daemon itself (which read config.json) ever held the secret's variable: not its workers, not the
    // tmux server they started, not the CLI.
    const daemonPid = readPid(rig.home.paths.pidFile) ?? -1;
    // A pid of 0 (a tmux call that failed under load) would make init and the whole machine "descendants".
    let tmuxPid = 0;
    for (let i = 0; i < 10 && !(tmuxPid > 1); i++) tmuxPid = Number((await rig.tmux.run(['display-message', '-p', '#{pid}'])).stdout.trim());
    expect(daemonPid).toBeGreaterThan(1);
    expect(tmuxPid).toBeGreaterThan(1);
    const tree = treeOf([daemonPid, tmuxPid]);
    expect(tree.size).toBeGreaterThan(3);
    tree.delete(daemonPid);
    expect(procsContaining('environ', appSecret, tree)).toEqual([]);
    // The CLI has the bot's key, but no process — tmux server, tmux clients, CLI — has it on its command line.
    expect(procsContaining('environ', botKey).length).toBeGreaterThan(0);
    expect(procsContaining('cmdline', botKey)).toEqual([]);
  });
});
