// Pictures and files sent in the chat land in the session's folder and the CLI is told where (shell CLI here).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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
    rig = await startRig();
    await rig.start();
    const { fake, home } = rig;
    const fileMsgId = `om_att_file_${Date.now().toString(16)}`;
    const body = Buffer.from('line one\n第二行 ✅\n');
    fake.addResource(fileMsgId, 'file_v3_fake_notes', 'file', body);
    const first = await fake.injectMessage({
      chatType: 'p2p', messageId: fileMsgId, messageType: 'file',
      content: JSON.stringify({ file_key: 'file_v3_fake_notes', file_name: '../notes 笔记.txt' }),
    });
    await fake.waitFor(() => uploads(home.dir).some((f) => f.endsWith('notes 笔记.txt')), 30_000, 'file saved');
    const saved = uploads(home.dir).find((f) => f.endsWith('notes 笔记.txt'))!;
    // The sender's "../" is dropped: the file stays inside the day's folder.
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
    expect(readFileSync(files.find((f) => f.endsWith('-a.txt'))!).equals(a)).toBe(true);
    expect(readFileSync(files.find((f) => f.endsWith('-b 文件.txt'))!).equals(b)).toBe(true);
    await fake.waitFor(() => fake.reactions.some((r) => r.messageId === parentId), 30_000, 'delivered reaction on the forward');
    // The children's resources were fetched through the parent's id.
    const fetched = fake.calls.filter((c) => c.endpoint === 'resource' && c.status === 200).map((c) => c.path);
    expect(fetched.filter((p) => p.includes(`/messages/${parentId}/resources/`))).toHaveLength(2);
  });
});
