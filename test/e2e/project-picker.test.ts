// The folder picker (issue 28: its waiting prompt is private to the bot runtime): a first message in a bot with two
// projects asks which folder, the tap on one runs that very message there. Real built daemon, fake Feishu, shell CLI.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buttons, textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';

describe('project picker', () => {
  let rig: E2eRig | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a first message waits for the folder; the tap runs it in the chosen project (one session)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lmx-picker-'));
    const projects = ['alpha-proj', 'beta-proj'].map((p) => join(dir!, p));
    for (const p of projects) mkdirSync(p);
    rig = await startRig({ botOverrides: { projects } });
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const chatId = 'oc_pickerchat00000000001';
    await fake.injectMessage({ chatType: 'p2p', chatId, text: 'echo in-$(basename "$PWD")-$((6*7))' });
    const picker = await fake.waitFor(() => fake.messages.find((m) => m.appId === appId && m.chatId === chatId && m.msgType === 'interactive' && buttons(m.content).includes('beta-proj')), 60_000, 'picker card');
    expect(buttons(picker.content)).toEqual(['alpha-proj', 'beta-proj']);
    expect(textsIn(fake, appId, chatId).some((t) => t.includes('in-'))).toBe(false);

    await fake.tapButton(picker.messageId, 'beta-proj');
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('in-beta-proj-42')), 90_000, 'the waiting message answered in beta-proj');
    const sessions = (await rig.status()).sessions.filter((s: any) => s.key.startsWith(chatId));
    expect(sessions).toHaveLength(1);
    expect(sessions[0].cwd).toBe(projects[1]);

  }, 180_000);
});
