// Pictures and files sent in the chat land in the session's folder and the CLI is told where (shell CLI here).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5b1b6e30000000049454e44ae426082', 'hex');

function uploads(cwd: string): string[] {
  const root = join(cwd, '.larkmux', 'uploads');
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((day) => readdirSync(join(root, day)).map((f) => join(root, day, f)));
}

describe('attachments into the session', () => {
  let rig: E2eRig | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
  });

  it('a file and a picture are saved under .larkmux/uploads/<date>/ with their bytes, named in the prompt, and the messages get the delivered reaction', async () => {
    // A lone picture waits for text (imageWaitSeconds); 1 s here, so it goes alone almost at once.
    rig = await startRig({ botOverrides: { attachments: { imageWaitSeconds: 1 } } });
    await rig.start();
    const { fake, home } = rig;
    const fileMsgId = `om_att_file_${Date.now().toString(16)}`;
    const body = Buffer.from('line one\n第二行 ✅\n');
    fake.addResource(fileMsgId, 'file_v3_fake_notes', 'file', body);
    const first = await fake.injectMessage({
      chatType: 'p2p', messageId: fileMsgId, messageType: 'file',
      content: JSON.stringify({ file_key: 'file_v3_fake_notes', file_name: '../notes 笔记.txt' }),
    });
    await fake.waitFor(() => uploads(home.dir).some((f) => f.endsWith('.txt')), 30_000, 'file saved');
    const saved = uploads(home.dir).find((f) => f.endsWith('.txt'))!;
    // Stored under a generated name (the extension kept): the sender's "../" and spaces never reach the path.
    expect(saved.startsWith(join(home.dir, '.larkmux', 'uploads', new Date().toISOString().slice(0, 10)))).toBe(true);
    expect(readFileSync(saved).equals(body)).toBe(true);
    await fake.waitFor(() => fake.reactions.some((r) => r.messageId === fileMsgId), 30_000, 'delivered reaction on the file message');

    const imgMsgId = `om_att_img_${Date.now().toString(16)}`;
    fake.addResource(imgMsgId, 'img_v3_fake_in', 'image', PNG);
    await fake.injectMessage({ chatType: 'p2p', chatId: first.chatId, messageId: imgMsgId, messageType: 'image', content: JSON.stringify({ image_key: 'img_v3_fake_in' }) });
    await fake.waitFor(() => uploads(home.dir).some((f) => f.endsWith('.png')), 30_000, 'picture saved');
    expect(readFileSync(uploads(home.dir).find((f) => f.endsWith('.png'))!).equals(PNG)).toBe(true);
    await fake.waitFor(() => fake.reactions.some((r) => r.messageId === imgMsgId), 30_000, 'delivered reaction on the picture');
    // The session's log says what was saved; nothing was refused.
    expect(rig.logText()).toMatch(/"saved":1,"refused":0/);
  });

  it('a merged-forward message with two files arrives as two files in the uploads folder (fetched through the parent)', async () => {
    rig = await startRig();
    await rig.start();
    const { fake, home } = rig;
    const parentId = `om_fwd_${Date.now().toString(16)}`;
    const chatId = `oc_p2p_fwd${Date.now().toString(16)}`;
    const a = Buffer.from('first forwarded file\n');
    const b = Buffer.from('第二个文件\n');
    fake.addMergeForward(parentId, chatId, [
      { kind: 'file', key: 'file_v3_fake_fwd_a', name: 'a.txt', bytes: a },
      { kind: 'file', key: 'file_v3_fake_fwd_b', name: 'b 文件.txt', bytes: b },
    ]);
    await fake.injectMessage({ chatType: 'p2p', chatId, messageId: parentId, messageType: 'merge_forward', content: JSON.stringify({ content: 'Merged and Forwarded Message' }) });
    await fake.waitFor(() => uploads(home.dir).filter((f) => !f.endsWith('.part')).length === 2, 30_000, 'two forwarded files saved');
    const files = uploads(home.dir);
    expect(files.map((f) => readFileSync(f).toString()).sort()).toEqual([a.toString(), b.toString()].sort());
    expect(files.every((f) => /\/\d{6}-[0-9a-f]{6}\.txt$/.test(f))).toBe(true);
    await fake.waitFor(() => fake.reactions.some((r) => r.messageId === parentId), 30_000, 'delivered reaction on the forward');
    // The children's resources were fetched through the parent's id.
    const fetched = fake.calls.filter((c) => c.endpoint === 'resource' && c.status === 200).map((c) => c.path);
    expect(fetched.filter((p) => p.includes(`/messages/${parentId}/resources/`))).toHaveLength(2);
  });

  it('a lone picture waits for the same person\'s text and goes with it as one prompt; another lone picture goes alone after the wait (in a shell: its path only)', async () => {
    rig = await startRig({ botOverrides: { attachments: { imageWaitSeconds: 3 } } });
    await rig.start();
    const { fake, home } = rig;
    const appId = rig.appIds[0]!;
    const chatId = `oc_p2p_imgwait${Date.now().toString(16)}`;
    const imgId = `om_imgwait_${Date.now().toString(16)}`;
    fake.addResource(imgId, 'img_v3_fake_wait', 'image', PNG);
    await fake.injectMessage({ chatType: 'p2p', chatId, messageId: imgId, messageType: 'image', content: JSON.stringify({ image_key: 'img_v3_fake_wait' }) });
    // The person is told the picture waits for text (a reply to the picture), and nothing reached the CLI yet.
    const waiting = await fake.waitFor(() => fake.messages.find((m) => m.appId === appId && m.chatId === chatId && m.msgType === 'text' && String((m.content as { text?: string }).text).includes('waits 3 s for your text')), 15_000, 'waiting notice');
    expect(waiting.parentId).toBe(imgId);
    expect(uploads(home.dir)).toEqual([]);
    const text = await fake.injectMessage({ chatType: 'p2p', chatId, text: 'echo merged-$((6*7))' });
    await fake.waitFor(() => uploads(home.dir).some((f) => f.endsWith('.png')), 30_000, 'picture saved with the text');
    const png = uploads(home.dir).find((f) => f.endsWith('.png'))!;
    const rel = png.slice(home.dir.length + 1);
    // One turn: the text ran, and the picture's path was typed after it, in the same prompt.
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('merged-42') && t.includes(rel)), 60_000, 'one prompt with text and picture');
    await fake.waitFor(() => fake.reactions.some((r) => r.messageId === text.messageId), 30_000, 'delivered reaction on the text');

    // No text follows this one: after the wait it goes alone, with the default instruction.
    const lone = `om_imglone_${Date.now().toString(16)}`;
    fake.addResource(lone, 'img_v3_fake_lone', 'image', PNG);
    await fake.injectMessage({ chatType: 'p2p', chatId, messageId: lone, messageType: 'image', content: JSON.stringify({ image_key: 'img_v3_fake_lone' }) });
    await fake.waitFor(() => fake.reactions.some((r) => r.messageId === lone), 60_000, 'lone picture delivered after the wait');
    // A shell gets no instruction (it would run it): only the saved picture's path, which bash will not run.
    await fake.waitFor(() => uploads(home.dir).filter((f) => f.endsWith('.png')).length === 2, 30_000, 'lone picture saved');
    const lonePng = uploads(home.dir).find((f) => f.endsWith('.png') && f !== png)!;
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes(lonePng.slice(home.dir.length + 1)) && /Permission denied/.test(t)), 30_000, 'path alone in the prompt');
    expect(textsIn(fake, appId, chatId).some((t) => /Please/.test(t))).toBe(false);
  }, 180_000);

  it('per-bot limits: a file beyond maxFileMiB is not saved, and the person is told so', async () => {
    rig = await startRig({ botOverrides: { attachments: { imageWaitSeconds: 0, maxFileMiB: 1 } } });
    await rig.start();
    const { fake, home } = rig;
    const appId = rig.appIds[0]!;
    const chatId = `oc_p2p_limit${Date.now().toString(16)}`;
    const big = `om_big_${Date.now().toString(16)}`;
    fake.addResource(big, 'file_v3_fake_big', 'file', Buffer.alloc(1024 * 1024 + 10, 7));
    await fake.injectMessage({ chatType: 'p2p', chatId, messageId: big, messageType: 'file', content: JSON.stringify({ file_key: 'file_v3_fake_big', file_name: 'big.bin' }) });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.startsWith('Not everything was saved') && t.includes('big.bin: larger than 1 MB')), 30_000, 'told what was not saved');
    expect(uploads(home.dir)).toEqual([]);
  }, 120_000);

  it('in a shell a reply quoting an earlier message types only the person\'s own words; the quote\'s picture is not brought along', async () => {
    rig = await startRig({ botOverrides: { attachments: { imageWaitSeconds: 0 } } });
    await rig.start();
    const { fake, home } = rig;
    const appId = rig.appIds[0]!;
    const chatId = `oc_p2p_quote${Date.now().toString(16)}`;
    const said = await fake.injectMessage({ chatType: 'p2p', chatId, text: 'echo first-$((3*3))' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('first-9')), 60_000, 'first answer');
    // The reply quotes it: a shell runs what it is given, so only the person's own command is typed (issue 31).
    const reply = await fake.injectMessage({ chatType: 'p2p', chatId, quoteId: said.messageId, text: 'echo own-$((4*4))' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('own-16')), 60_000, 'own words ran');
    await fake.waitFor(() => fake.reactions.some((r) => r.messageId === reply.messageId), 30_000, 'delivered reaction on the reply');
    expect(fake.calls.some((c) => c.endpoint === 'get_message' && c.path.endsWith(`/messages/${said.messageId}`))).toBe(true);
    expect(textsIn(fake, appId, chatId).some((t) => /Quoted/.test(t))).toBe(false);

    // Quoting a picture: the picture stays in the chat (no second copy saved), the person's words run.
    const pic = `om_quotepic_${Date.now().toString(16)}`;
    fake.addResource(pic, 'img_v3_fake_quoted', 'image', PNG);
    await fake.injectMessage({ chatType: 'p2p', chatId, messageId: pic, messageType: 'image', content: JSON.stringify({ image_key: 'img_v3_fake_quoted' }) });
    await fake.waitFor(() => uploads(home.dir).filter((f) => f.endsWith('.png')).length === 1, 30_000, 'picture saved');
    await fake.injectMessage({ chatType: 'p2p', chatId, quoteId: pic, text: 'echo about-pic-$((5*5))' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('about-pic-25')), 60_000, 'own words about the picture ran');
    expect(uploads(home.dir).filter((f) => f.endsWith('.png'))).toHaveLength(1);
  }, 180_000);
});
