// /adopt end to end with a shell bot: real daemon, real SDK, fake Feishu, real tmux. Panes started by hand on larkmux's
// tmux server are listed by what runs in them (process tree on the pane's tty); the chosen one is taken over without
// restarting its program (same PID), and stays this chat's session across `larkmux restart`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buttons, textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';
import { runLarkmux } from '../support/larkmux-cli.js';

const TEAM = 'oc_lmxadoptteam000000001';
const TALKER = 'ou_adopttalker0000000001';

describe('/adopt', () => {
  let rig: E2eRig | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists only hand-started panes running a known CLI, refuses talkers, adopts the chosen shell with its PID, and keeps it after a restart', async () => {
    rig = await startRig({ botOverrides: { allowedChats: [TEAM] } });
    await rig.start();
    const { fake, tmux } = rig;
    const appId = rig.appIds[0]!;
    dir = mkdtempSync(join(tmpdir(), 'lmx-adopt-'));

    // A session larkmux started itself: its pane runs a shell too, and must not be offered.
    const owned = await fake.injectMessage({ chatType: 'p2p', chatId: 'oc_adoptowned00000000001', text: 'echo owned-$((40+2))' });
    await fake.waitFor(() => textsIn(fake, appId, owned.chatId).some((t) => t.includes('owned-42')), 60_000, 'own session up');
    // By hand on the same server: a shell (a CLI for this shell bot) and a pane running only `sleep` (not a CLI).
    expect((await tmux.run(['new-session', '-d', '-s', 'mine', '-x', '100', '-y', '30', '-c', dir, '--', 'bash', '--norc', '--noprofile'])).code).toBe(0);
    expect((await tmux.run(['new-session', '-d', '-s', 'napping', '--', 'sleep', '100000'])).code).toBe(0);
    const panePid = Number((await tmux.run(['display-message', '-p', '-t', 'mine:', '#{pane_pid}'])).stdout.trim());
    expect(panePid).toBeGreaterThan(1);

    // A talker may talk in the team chat but not operate: refused, and nothing is listed.
    const before = fake.messages.length;
    await fake.injectMessage({ chatType: 'group', chatId: TEAM, senderOpenId: TALKER, text: '/adopt', mentionBot: true });
    await fake.waitFor(() => textsIn(fake, appId, TEAM).some((t) => t.includes("/adopt is only for this bot's operators.")), 30_000, 'refusal');
    expect(fake.messages.slice(before).some((m) => m.msgType === 'interactive')).toBe(false);

    // The operator gets a card with one button: the hand-started shell.
    const chatId = 'oc_adoptchat000000000001';
    const ask = await fake.injectMessage({ chatType: 'p2p', chatId, text: '/adopt' });
    const card = await fake.waitFor(() => fake.messages.find((m) => m.appId === appId && m.chatId === chatId && m.msgType === 'interactive' && buttons(m.content).length > 0), 30_000, 'adopt card');
    const labels = buttons(card.content);
    expect(labels).toHaveLength(1);
    expect(labels[0]).toMatch(new RegExp(`^1\\. shell · mine:0 · ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(pid ${panePid}\\)$`));
    expect(ask.chatId).toBe(chatId);

    await fake.tapButton(card.messageId, labels[0]!);
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.startsWith('Adopted shell in mine:0')), 30_000, 'adopted reply');
    // The next message goes to the same shell: $$ is the pane's first process, started by hand.
    await fake.injectMessage({ chatType: 'p2p', chatId, text: 'echo adopted-$$' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes(`adopted-${panePid}`)), 60_000, 'answer from the adopted shell');

    // Now it is larkmux's: no longer offered elsewhere.
    const other = 'oc_adoptchat000000000002';
    await fake.injectMessage({ chatType: 'p2p', chatId: other, text: '/adopt' });
    await fake.waitFor(() => textsIn(fake, appId, other).some((t) => t.includes('No tmux pane on larkmux')), 30_000, 'nothing left to adopt');

    // Survives a restart like any other session, and the person's own session still shows the same pane.
    expect((await runLarkmux(['restart'], rig.home.env)).code).toBe(0);
    await fake.waitFor(() => fake.connectionCount(appId) > 0, 30_000, 'reconnected');
    await fake.injectMessage({ chatType: 'p2p', chatId, text: 'echo again-$$' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes(`again-${panePid}`)), 60_000, 'answer after restart');
    expect((await tmux.run(['list-panes', '-t', '=mine:', '-F', '#{pane_pid}'])).stdout.trim()).toBe(String(panePid));

    // /close hands the pane back: larkmux's link goes, the person's shell keeps running in their own session.
    await fake.injectMessage({ chatType: 'p2p', chatId, text: '/close' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => /^Closed session/.test(t)), 30_000, 'closed');
    for (let deadline = Date.now() + 20_000; ; await new Promise((r) => setTimeout(r, 200))) {
      const names = (await tmux.run(['list-sessions', '-F', '#{session_name}'])).stdout.split('\n').filter(Boolean);
      if (names.filter((n) => n.startsWith('lmx-')).length === 1) break; // only the session larkmux launched itself
      if (Date.now() > deadline) throw new Error(`the adopted pane's lmx- session stayed: ${names.join(' ')}`);
    }
    expect((await tmux.run(['list-panes', '-t', '=mine:', '-F', '#{pane_pid} #{pane_dead}'])).stdout.trim()).toBe(`${panePid} 0`);
  }, 240_000);
});
