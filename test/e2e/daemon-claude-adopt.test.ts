// /adopt with the real Claude Code: started by hand in a tmux pane (not by larkmux), taken over from the chat, it
// answers the next message from the same process, and is still served after `larkmux restart`.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, onTestFailed } from 'vitest';
import { buttons, textsIn } from '../support/cards.js';
import { disposeClaudeWorld, startClaudeWorld, type ClaudeWorld } from '../support/claude-world.js';
import { alive, nsenterTmux } from '../support/cli-rig.js';
import { cleanCliEnv, skipWithoutCli } from '../support/clis.js';
import { runLarkmux } from '../support/larkmux-cli.js';

describe.skipIf(skipWithoutCli('claude'))('daemon + real Claude Code: /adopt', () => {
  let world: ClaudeWorld | undefined;
  afterEach(async () => {
    if (!world) return;
    await disposeClaudeWorld(world);
    world = undefined;
  });

  it('a Claude started by hand in tmux is adopted from the chat, answers from the same PID, and survives larkmux restart', async () => {
    world = await startClaudeWorld({ askPermissions: false });
    const { rig, cwd, env } = world;
    onTestFailed(() => {
      const lines = rig.logText().split('\n').filter((l) => /adopt|gate|delivered|input_failed|transcript|attach|error/i.test(l));
      process.stderr.write(`${lines.slice(-40).join('\n')}\n`);
    });
    await rig.start();
    const { fake, tmux } = rig;
    const appId = rig.appIds[0]!;

    // By hand, on larkmux's tmux server (inside the fake model's network namespace), not through larkmux.
    const envArgs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
    await nsenterTmux(world.fake.netnsPid, tmux.socket, ['new-session', '-d', '-s', 'mine', '-x', '120', '-y', '40', '-c', cwd, '--', 'env', ...envArgs, 'claude'], cleanCliEnv({ HOME: env.HOME!, TMPDIR: env.TMPDIR! }));
    const pid = Number((await tmux.run(['display-message', '-p', '-t', '=mine:', '#{pane_pid}'])).stdout.trim());
    expect(pid).toBeGreaterThan(1);
    // Claude is up (its composer drawn) before anyone adopts it, as it would be for a person.
    for (let deadline = Date.now() + 90_000; !/for shortcuts|❯|>\s/.test((await tmux.run(['capture-pane', '-p', '-t', '=mine:'])).stdout);) {
      if (Date.now() > deadline) throw new Error('the hand-started Claude never drew its composer');
      await new Promise((r) => setTimeout(r, 300));
    }

    const chatId = 'oc_adoptclaude0000000001';
    await fake.injectMessage({ chatType: 'p2p', chatId, text: '/adopt' });
    const card = await fake.waitFor(() => fake.messages.find((m) => m.appId === appId && m.chatId === chatId && m.msgType === 'interactive' && buttons(m.content).length > 0), 30_000, 'adopt card');
    const label = buttons(card.content).find((b) => b.includes(`(pid ${pid})`));
    expect(label, buttons(card.content).join(' | ')).toMatch(/^1\. claude-code · mine:0 · /);
    await fake.tapButton(card.messageId, label!);
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.startsWith('Adopted claude-code in mine:0')), 30_000, 'adopted reply');

    const hello = await fake.injectMessage({ chatType: 'p2p', chatId, text: 'adopted hello OSPREY' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('FAKE-REPLY: adopted hello OSPREY')), 120_000, 'answer from the adopted Claude');
    // Delivery was proven (Claude's transcript recorded the turn), as for a session larkmux launched.
    await fake.waitFor(() => fake.reactions.some((r) => r.messageId === hello.messageId), 30_000, 'delivered reaction');
    expect((await tmux.run(['list-panes', '-t', '=mine:', '-F', '#{pane_pid}'])).stdout.trim()).toBe(String(pid));
    expect(alive(pid)).toBe(true);
    // The conversation id came from Claude's transcript: a restart can find the session again.
    await fake.waitFor(() => JSON.parse(readFileSync(rig.home.paths.sessionStore(appId), 'utf8')).records.find((r: { nativeSessionId?: string }) => r.nativeSessionId), 20_000, 'native id stored');

    expect((await runLarkmux(['restart'], rig.home.env)).code).toBe(0);
    await fake.waitFor(() => fake.connectionCount(appId) > 0, 30_000, 'reconnected');
    await fake.injectMessage({ chatType: 'p2p', chatId, text: 'after restart PUFFIN' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('FAKE-REPLY: after restart PUFFIN')), 120_000, 'answer after restart');
    // Same process all along: never relaunched, and the person's own tmux session still shows it.
    expect((await tmux.run(['list-panes', '-t', '=mine:', '-F', '#{pane_pid}'])).stdout.trim()).toBe(String(pid));
    expect(alive(pid)).toBe(true);
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8')).toMatch(/claude/);
  }, 400_000);
});
