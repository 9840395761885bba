// Issue 15 item 9: two LARKMUX_HOMEs on one machine each get their own tmux server by default, so `larkmux sessions
// prune` and doctor's orphan check in one home never see (or kill) the other home's live sessions.
import { afterEach, describe, expect, it } from 'vitest';
import { tmuxSocketName } from '../../src/shared/tmux-socket.js';
import { makeTestHome, type TestHome } from '../support/home.js';
import { runLarkmux } from '../support/larkmux-cli.js';
import { makeTmuxServer, type TestTmuxServer } from '../support/tmux.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function home(): { home: TestHome; tmux: TestTmuxServer } {
  const h = makeTestHome('lmx-sock-');
  h.writeConfig({ bots: [] }); // no tmux.socket: the default applies
  const tmux = makeTmuxServer(tmuxSocketName(null, h.dir));
  cleanups.push(() => h.cleanup(), () => tmux.kill());
  return { home: h, tmux };
}

describe('tmux socket per LARKMUX_HOME', () => {
  it('derives a distinct, stable socket per home and keeps a configured one', () => {
    expect(tmuxSocketName(null, '/home/a/.larkmux')).toMatch(/^lmx-[0-9a-f]{8}$/);
    expect(tmuxSocketName(null, '/home/a/.larkmux')).toBe(tmuxSocketName(null, '/home/a/.larkmux'));
    expect(tmuxSocketName(null, '/home/a/.larkmux')).not.toBe(tmuxSocketName(null, '/home/b/.larkmux'));
    expect(tmuxSocketName('mine', '/home/a/.larkmux')).toBe('mine');
  });

  it("prune and doctor in one home leave another home's live session alone", async () => {
    const a = home();
    const b = home();
    // A CLI session of home B (its store is not in home A, so A would call it an orphan if it could see it).
    expect((await b.tmux.run(['new-session', '-d', '-s', 'lmx-0badc0de', 'sleep', '600'])).code).toBe(0);

    const doctorA = await runLarkmux(['doctor'], a.home.env, 120_000);
    expect(doctorA.stdout).not.toContain('lmx-0badc0de');
    const pruneA = await runLarkmux(['sessions', 'prune'], a.home.env);
    expect(pruneA.stdout).toContain('nothing to prune');
    expect((await b.tmux.run(['has-session', '-t', '=lmx-0badc0de'])).code).toBe(0);

    // In its own home the same session is an orphan, and doctor names the server to look at.
    const doctorB = await runLarkmux(['doctor'], b.home.env, 120_000);
    expect(doctorB.stdout).toContain('lmx-0badc0de');
    const pruneB = await runLarkmux(['sessions', 'prune'], b.home.env);
    expect(pruneB.stdout).toContain('removed 1 tmux session(s): lmx-0badc0de');
    expect((await b.tmux.run(['has-session', '-t', '=lmx-0badc0de'])).code).not.toBe(0);
  });
});
