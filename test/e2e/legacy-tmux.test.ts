// Issue 15: sessions started before larkmux used a tmux server per home live on the old (default) server. After the
// upgrade they are served where they run (never a second CLI, never killed), the daemon log and doctor say so plainly.
// The "default" server here is the rig's own isolated `-L` server (LARKMUX_LEGACY_TMUX_SOCKET): never the real one.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { tmuxSocketName } from '../../src/shared/tmux-socket.js';
import { textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';
import { runLarkmux } from '../support/larkmux-cli.js';
import { makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';

describe('sessions on the old default tmux server', () => {
  let rig: E2eRig | undefined;
  let homeServer: TestTmuxServer | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    await homeServer?.kill();
    rig = undefined;
    homeServer = undefined;
  });

  async function say(r: E2eRig, chatId: string | undefined, text: string, expect: string): Promise<string> {
    const appId = r.appIds[0]!;
    const m = await r.fake.injectMessage({ chatType: 'p2p', ...(chatId ? { chatId } : {}), text });
    await r.fake.waitFor(() => textsIn(r.fake, appId, m.chatId).some((t) => t.includes(expect)), 60_000, `answer ${expect}`);
    return m.chatId;
  }

  const panePid = async (server: TestTmuxServer, name: string) =>
    (await server.run(['display-message', '-p', '-t', `=${name}:`, '#{pane_pid}'])).stdout.trim();

  it('are served where they run after the upgrade, and doctor and the log name them', async () => {
    rig = await startRig();
    const r = rig;
    // Before the upgrade: the session's CLI runs on the old server (here the rig's isolated one), with shell state.
    await r.start();
    const chatId = await say(r, undefined, 'LEGACY_MARK=kept-$((6*7)); echo "set $LEGACY_MARK"', 'set kept-42');
    const [session] = (await r.status()).sessions as { id: string; tmuxName: string }[];
    const oldPid = await panePid(r.tmux, session!.tmuxName);
    expect(oldPid).toMatch(/^\d+$/);
    await r.stop();

    // The upgrade: no tmux.socket in config.json, so this home now derives its own server; the old one is the "default".
    const config = JSON.parse(readFileSync(r.home.paths.config, 'utf8')) as Record<string, unknown>;
    delete config.tmux;
    r.home.writeConfig(config);
    r.home.env.LARKMUX_LEGACY_TMUX_SOCKET = r.tmux.socket;
    homeServer = makeTmuxServer(tmuxSocketName(null, r.home.dir));

    const doctor = JSON.parse((await runLarkmux(['doctor', '--json'], r.home.env, 120_000)).stdout) as { level: string; label: string; detail: string; fix?: string }[];
    const line = doctor.find((l) => l.label === 'old tmux server');
    expect(line).toMatchObject({ level: 'WARN' });
    expect(line!.detail).toContain(session!.tmuxName);
    expect(line!.fix).toContain(`tmux -L ${r.tmux.socket} attach -t ${session!.tmuxName}`);

    await r.start();
    await r.fake.waitFor(() => /still runs on the default tmux server/.test(r.logText()), 30_000, 'the log names the session');
    expect(r.logText()).toContain(session!.tmuxName);

    // The same shell answers (its variable survived), on the old server; nothing was started on the home server.
    await say(r, chatId, 'echo "again $LEGACY_MARK"', 'again kept-42');
    expect(await panePid(r.tmux, session!.tmuxName)).toBe(oldPid);
    expect((await homeServer.run(['has-session', '-t', `=${session!.tmuxName}`])).code).not.toBe(0);
    const st = await r.status();
    expect(st.sessions).toHaveLength(1);
    expect(st.sessions[0].id).toBe(session!.id);

    // Closed by the person, the old CLI goes; the chat's next CLI starts on the home's own server.
    await r.fake.injectMessage({ chatType: 'p2p', chatId, text: '/close' });
    for (let i = 0; (await r.tmux.run(['has-session', '-t', `=${session!.tmuxName}`])).code === 0; i++) {
      if (i > 300) throw new Error('the old session was never closed');
      await new Promise((res) => setTimeout(res, 200));
    }
    await say(r, chatId, 'echo "fresh-$((1+1)) [$LEGACY_MARK]"', 'fresh-2 []');
    const next = ((await r.status()).sessions as { id: string; tmuxName: string; lifecycle: string }[]).find((s) => s.lifecycle !== 'closed');
    expect(next?.id).not.toBe(session!.id);
    expect((await homeServer.run(['has-session', '-t', `=${next!.tmuxName}`])).code).toBe(0);
  }, 300_000);

  it("doctor leaves the old server's sessions of other homes (or none) alone", async () => {
    rig = await startRig();
    const r = rig;
    const config = JSON.parse(readFileSync(r.home.paths.config, 'utf8')) as Record<string, unknown>;
    delete config.tmux;
    r.home.writeConfig(config);
    r.home.env.LARKMUX_LEGACY_TMUX_SOCKET = r.tmux.socket;
    homeServer = makeTmuxServer(tmuxSocketName(null, r.home.dir));
    // A larkmux-named session on the old server that this home's store does not own.
    expect((await r.tmux.run(['new-session', '-d', '-s', 'lmx-0badc0de', 'sleep', '600'])).code).toBe(0);
    const doctor = await runLarkmux(['doctor'], r.home.env, 120_000);
    expect(doctor.stdout).not.toContain('lmx-0badc0de');
    expect(doctor.stdout).not.toContain('old tmux server');
    expect((await r.tmux.run(['has-session', '-t', '=lmx-0badc0de'])).code).toBe(0);
  }, 180_000);
});
