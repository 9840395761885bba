// What reaches a shell session is only what the person wrote (issue 31): a quoted message is never typed into a shell,
// through the real daemon, the fake Feishu and a real bash in tmux.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cardsFor, decodeEntities, markdownText, textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';

describe('typed into a shell session', () => {
  let rig: E2eRig | undefined;
  let work: string | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
    if (work) rmSync(work, { recursive: true, force: true });
    work = undefined;
  });
  /** The session's folder, apart from the larkmux home (whose files the daemon writes). */
  const workDir = (): string => (work = mkdtempSync(join(tmpdir(), 'lmx-typed-')));

  it('a reply quoting a message that names existing files runs only the person\'s own words: the files are unchanged', async () => {
    const dir = workDir();
    rig = await startRig({ botOverrides: { workingDir: dir } });
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const chatId = `oc_p2p_quoteshell${Date.now().toString(16)}`;
    // Files in the session's folder whose names start the quoted lines (as a redirect, `> notes.txt …` empties it).
    writeFileSync(join(dir, 'notes.txt'), 'precious notes\n');
    writeFileSync(join(dir, 'victim'), 'precious victim\n');
    const before = readdirSync(dir).sort();
    // Someone else's message in the chat, never sent to the bot: only quoted.
    const parentId = `om_quoted_${Date.now().toString(16)}`;
    fake.addChatMessage({ messageId: parentId, chatId, text: 'notes.txt is the one to keep\necho hi > victim\n$(touch PWN1)' });
    const reply = await fake.injectMessage({ chatType: 'p2p', chatId, quoteId: parentId, text: 'echo own-$((6*7))' });
    // The person's own words arrived and ran.
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('own-42')), 60_000, 'own words ran');
    await fake.waitFor(() => fake.reactions.some((r) => r.messageId === reply.messageId), 30_000, 'delivered reaction on the reply');
    expect(fake.calls.some((c) => c.endpoint === 'get_message' && c.path.endsWith(`/messages/${parentId}`))).toBe(true);
    // Nothing of the quote ran: both files keep their bytes, no file appeared (`echo`, `hi`, `PWN1`).
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('precious notes\n');
    expect(readFileSync(join(dir, 'victim'), 'utf8')).toBe('precious victim\n');
    expect(readdirSync(dir).sort()).toEqual(before);
    expect(existsSync(join(dir, 'PWN1'))).toBe(false);
    expect(textsIn(fake, appId, chatId).some((t) => /Quoted|command not found/.test(t))).toBe(false);
    // The turn card says why the quote was not typed.
    await fake.waitFor(() => cardsFor(fake, appId, reply.messageId).some((m) => decodeEntities(markdownText(m.content)).includes('Only your own words were typed')), 30_000, 'card notice about the quote');
  }, 180_000);
  it('files whose names hold $(…), backticks, quotes, a newline and spaces run nothing: stored under generated names, the path typed, the name on the card', async () => {
    const dir = workDir();
    rig = await startRig({ botOverrides: { workingDir: dir, attachments: { imageWaitSeconds: 0 } } });
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const chatId = `oc_p2p_names${Date.now().toString(16)}`;
    const hostile = ['r$(touch PWN2)x.txt', '`touch PWN3`.txt', 'q"$(touch PWN4)"\'it\'s\n$(touch PWN5) b.txt'];
    for (const [i, name] of hostile.entries()) {
      const id = `om_name_${i}_${Date.now().toString(16)}`;
      const body = Buffer.from(`bytes of file ${i}\n`);
      fake.addResource(id, `file_v3_fake_name${i}`, 'file', body);
      await fake.injectMessage({ chatType: 'p2p', chatId, messageId: id, messageType: 'file', content: JSON.stringify({ file_key: `file_v3_fake_name${i}`, file_name: name }) });
      await fake.waitFor(() => fake.reactions.some((r) => r.messageId === id), 60_000, `file ${i} delivered`);
      // The shell answered the typed line, and nothing in the name ran.
      await fake.waitFor(() => textsIn(fake, appId, chatId).filter((t) => t.includes('.larkmux/uploads/')).length > i, 30_000, `answer to file ${i}`);
      expect(readdirSync(dir).filter((f) => f.startsWith('PWN'))).toEqual([]);
      // The shell got the stored path (bash will not run a 0600 file) and it holds the file's bytes.
      const typed = await fake.waitFor(() => textsIn(fake, appId, chatId).map((t) => /(\.larkmux\/uploads\/\d{4}-\d{2}-\d{2}\/\d{6}-[0-9a-f]{6}\.txt): Permission denied/.exec(t)?.[1])
        .filter((p): p is string => !!p && readFileSync(join(dir, p)).equals(body))[0], 30_000, `path of file ${i} typed`);
      // The card shows the sender's name (one line) beside the stored path.
      await fake.waitFor(() => cardsFor(fake, appId, id).some((m) => decodeEntities(markdownText(m.content)).includes(`${name.replace('\n', '\ufffd')} → ${typed}`)), 30_000, `name of file ${i} on the card`);
    }
  }, 240_000);
});
