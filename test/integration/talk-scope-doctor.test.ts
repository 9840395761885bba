// `larkmux doctor` says it when a shell or custom bot lets people talk who may not operate (issue 31 item 6): on such a
// CLI, talking is operating, and reaches every session of the home.
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestHome, type TestHome } from '../support/home.js';
import { runLarkmux } from '../support/larkmux-cli.js';

const bot = (name: string, appId: string, over: Record<string, unknown>) => ({
  name, appId, appSecret: 'not-a-real-secret-123', workingDir: '/tmp', allowedUsers: ['ou_owner'], ...over,
});

describe('doctor: talkers wider than operators', () => {
  let home: TestHome | undefined;
  afterEach(() => home?.cleanup());

  it('warns for the shell and custom bots with allowedChats, not for a model CLI or an operators-only shell', async () => {
    home = makeTestHome();
    home.writeConfig({
      bots: [
        bot('ops', 'cli_a000000000000001', { cli: 'shell', allowedChats: ['oc_team'] }),
        bot('top', 'cli_a000000000000002', { cli: { command: 'htop', readyPattern: 'F10' }, allowedChats: ['oc_a', 'oc_b'] }),
        bot('claude', 'cli_a000000000000003', { cli: 'claude-code', allowedChats: ['oc_team'] }),
        bot('mine', 'cli_a000000000000004', { cli: 'shell' }),
      ],
    });
    const res = await runLarkmux(['doctor', '--json'], home.env);
    const lines = JSON.parse(res.stdout) as { level: string; label: string; detail: string; fix?: string }[];
    const talkers = lines.filter((l) => l.label === 'talkers');
    expect(talkers.map((l) => l.level)).toEqual(['WARN', 'WARN']);
    expect(talkers[0]!.detail).toMatch(/^bots\[0\] \("ops"\): cli "shell" runs whatever it is sent, so whoever may talk to it may operate it: every member of the 1 chat in allowedChats/);
    expect(talkers[1]!.detail).toMatch(/^bots\[1\] \("top"\): the custom cli "htop" .* every member of the 2 chats in allowedChats/);
    expect(talkers[0]!.fix).toMatch(/allowedChats/);
    expect(lines.find((l) => l.label === 'config')?.level).toBe('OK');
  });
});
