// /adopt of a pane started by hand on a host (issue 29 item 4): the host's agent lists the panes of larkmux's tmux
// server there (the one the host's workers use) over the ControlMaster, they show as `b:session:window` beside this
// machine's, a host that cannot be reached is left out with one line, and the chosen pane becomes the topic's session
// on that host: the worker there attaches to it (same PID), and what the topic says is typed into that pane.
// Real daemon (the build: the bundle is what ships to the host), fake Feishu, shell bot, real sshd on 127.0.0.1.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttons, textsIn } from '../support/cards.js';
import type { E2eRig } from '../support/e2e-daemon.js';
import { hostTmux as hostTmuxOf, rigWithHosts } from '../support/host-rig.js';
import { runLarkmux } from '../support/larkmux-cli.js';
import { startTestSshd, type TestSshd } from '../support/sshd.js';

let sshd: TestSshd;
let hostRoot: string;
let dir: string;
let rig: E2eRig | undefined;
/** The "silent" host: takes the TCP connection and never says a word (a hung machine, a black-holed link). */
let silent: Server | undefined;
const silentSockets: Socket[] = [];

/** A loopback port nothing listens on: the "down" host's sshd. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  sshd = await startTestSshd();
  hostRoot = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-hostb-')));
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-adoptb-')));
}, 60_000);

/** A loopback port that accepts and stays silent. */
function silentPort(): Promise<number> {
  return new Promise((resolve) => {
    silent = createServer((s) => silentSockets.push(s)).listen(0, '127.0.0.1', () => resolve((silent!.address() as { port: number }).port));
  });
}

afterAll(async () => {
  await rig?.cleanup();
  for (const s of silentSockets) s.destroy();
  silent?.close();
  hostTmux(['kill-server']);
  await sshd?.cleanup();
  for (const d of [hostRoot, dir]) if (d) rmSync(d, { recursive: true, force: true });
});

const hostTmux = (args: string[]) => hostTmuxOf(hostRoot, args);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('/adopt on a host', () => {
  it('lists a hand-started shell on host b as b:mine:0, says the down and the silent host are left out, adopts it there with its PID, types the topic into it, keeps it across a restart, and gives it back on /close', async () => {
    const down = { ...sshd, port: await closedPort() };
    const mute = { ...sshd, port: await silentPort() };
    rig = await rigWithHosts([], [{ name: 'b', sshd }, { name: 'down', sshd: down }, { name: 'mute', sshd: mute }], hostRoot);
    const { fake } = rig;
    const appId = rig.appIds[0]!;

    // By hand on b, on larkmux's tmux server there: a shell (a CLI for this shell bot) and a pane with only `sleep`.
    expect(hostTmux(['new-session', '-d', '-s', 'mine', '-x', '100', '-y', '30', '-c', dir, '--', 'bash', '--norc', '--noprofile']).status).toBe(0);
    expect(hostTmux(['new-session', '-d', '-s', 'napping', '--', 'sleep', '100000']).status).toBe(0);
    const panePid = Number(hostTmux(['display-message', '-p', '-t', 'mine:', '#{pane_pid}']).stdout.trim());
    expect(panePid).toBeGreaterThan(1);

    const open = await fake.injectMessage({ chatType: 'group', text: '/adopt', mentionBot: true });
    const chatId = open.chatId;
    const card = await fake.waitFor(() => fake.messages.find((m) => m.appId === appId && m.chatId === chatId && m.msgType === 'interactive' && buttons(m.content).length > 0), 60_000, 'adopt card');
    const labels = buttons(card.content);
    expect(labels).toHaveLength(1);
    expect(labels[0]).toMatch(new RegExp(`^1\\. shell · b:mine:0 · ${escape(dir)} \\(pid ${panePid}\\)$`));
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('Host down is left out of this list:')), 30_000, 'the down host said');
    expect(textsIn(fake, appId, chatId).join('\n')).toContain('Host mute is left out of this list: no answer within 10 s');
    expect(textsIn(fake, appId, chatId).join('\n')).not.toContain('Host b is left out');

    await fake.tapButton(card.messageId, labels[0]!);
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.startsWith('Adopted shell in b:mine:0')), 60_000, 'adopted reply');
    const [session] = (await rig.status()).sessions.filter((s: { host?: string }) => s.host === 'b');
    expect(session).toBeDefined();
    expect(session.cwd).toBe(dir);

    // The topic's next message goes to the same shell on b: $$ is the pane's first process, started by hand there.
    const inTopic = (text: string) => fake.injectMessage({ chatType: 'group', chatId, rootId: open.messageId, text });
    await inTopic("echo adopted-$$ '中文 \"q\" 🙂'");
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes(`adopted-${panePid}`)), 120_000, 'answer from the adopted shell on b');
    const screen = hostTmux(['capture-pane', '-p', '-t', '=mine:']).stdout;
    expect(screen).toContain(`adopted-${panePid} 中文 "q" 🙂`);
    // Linked, not moved: the person's own session on b still holds the pane, and larkmux's session there shows it too.
    expect(hostTmux(['list-panes', '-t', '=mine:', '-F', '#{pane_pid}']).stdout.trim()).toBe(String(panePid));
    expect(hostTmux(['list-panes', '-t', `=${session.tmuxName}:`, '-F', '#{pane_pid}']).stdout.trim()).toBe(String(panePid));

    // Now larkmux's: no longer offered in another topic.
    const again = await fake.injectMessage({ chatType: 'group', text: '/adopt', mentionBot: true });
    await fake.waitFor(() => textsIn(fake, appId, again.chatId).some((t) => t.includes('No tmux pane on larkmux')), 60_000, 'nothing left to adopt');

    // Survives a daemon restart like any session on a host: the next message re-attaches to the same shell on b.
    // The built command, so the restarted daemon is the build too (a daemon run from source has no bundle to ship).
    expect((await runLarkmux(['restart'], rig.home.env, { from: 'built' })).code).toBe(0);
    await fake.waitFor(() => fake.connectionCount(appId) > 0, 30_000, 'reconnected');
    await inTopic('echo again-$$');
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes(`again-${panePid}`)), 120_000, 'answer after restart');

    // /close hands the pane back: larkmux's session on b goes, the person's shell keeps running in their own session.
    await inTopic('/close');
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => /^Closed session/.test(t)), 60_000, 'closed');
    for (let deadline = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 200))) {
      if (hostTmux(['has-session', '-t', `=${session.tmuxName}`]).status !== 0) break;
      if (Date.now() > deadline) throw new Error(`the adopted pane's ${session.tmuxName} stayed on b`);
    }
    expect(hostTmux(['list-panes', '-t', '=mine:', '-F', '#{pane_pid} #{pane_dead}']).stdout.trim()).toBe(`${panePid} 0`);
  }, 300_000);

  it("a pane on b outside b's workingDirs is not offered (said in one line); one moved outside after the list is refused, and b's panes are left as they were", async () => {
    await rig?.cleanup();
    rig = undefined;
    hostTmux(['kill-server']);
    const outside = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-adopt-out-')));
    try {
      rig = await rigWithHosts([], [{ name: 'b', sshd, workingDirs: [dir] }], hostRoot);
      const { fake } = rig;
      const appId = rig.appIds[0]!;
      const shell = (name: string, cwd: string) => hostTmux(['new-session', '-d', '-s', name, '-x', '100', '-y', '30', '-c', cwd, '--', 'bash', '--norc', '--noprofile']).status;
      expect(shell('inroot', dir)).toBe(0);
      expect(shell('outroot', outside)).toBe(0);

      const open = await fake.injectMessage({ chatType: 'group', text: '/adopt', mentionBot: true });
      const chatId = open.chatId;
      const card = await fake.waitFor(() => fake.messages.find((m) => m.appId === appId && m.chatId === chatId && m.msgType === 'interactive' && buttons(m.content).length > 0), 60_000, 'adopt card');
      const labels = buttons(card.content);
      expect(labels).toEqual([expect.stringMatching(new RegExp(`^1\\. shell · b:inroot:0 · ${escape(dir)} `))]);
      await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes(`1 more pane(s) on b run a CLI in a folder outside that host's workingDirs (${dir}): not offered.`)), 30_000, 'the pane outside the roots said');

      // The listed shell leaves the roots before the tap: the host's own answer at link time decides.
      hostTmux(['send-keys', '-t', '=inroot:', '-l', `cd '${outside}'`]);
      hostTmux(['send-keys', '-t', '=inroot:', 'Enter']);
      for (let deadline = Date.now() + 10_000; hostTmux(['display-message', '-p', '-t', '=inroot:', '#{pane_current_path}']).stdout.trim() !== outside; await new Promise((r) => setTimeout(r, 100))) {
        if (Date.now() > deadline) throw new Error('the shell on b did not move');
      }
      await fake.tapButton(card.messageId, labels[0]!);
      await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t === `Not taken over: the pane's folder ${outside} on b is outside that host's workingDirs (${dir}). Nothing changed in the pane.`), 60_000, 'the refusal');
      // No session on b, no larkmux session linked there; both shells still run in their own sessions.
      expect((await rig.status()).sessions.filter((s: { host?: string }) => s.host === 'b')).toEqual([]);
      expect(hostTmux(['list-sessions', '-F', '#{session_name}']).stdout.split('\n').filter(Boolean).sort()).toEqual(['inroot', 'outroot']);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  }, 300_000);
});
