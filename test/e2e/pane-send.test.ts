// `larkmux where` / `larkmux send` from inside a session's pane, end to end: real daemon, real SDK, fake Feishu,
// a real login shell in real tmux, the commands typed as the README writes them (issue 32 item 2). Identity is the
// caller's controlling tty; inherited $TMUX/$TMUX_PANE count for nothing, and the CLI has neither (issue 31 item 6).
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pty from '@lydell/node-pty';
import { afterEach, describe, expect, it } from 'vitest';
import { controlCall } from '../../src/platform/control-client.js';
import { t } from '../../src/shared/i18n.js';
import { textsIn } from '../support/cards.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';
import { ROOT } from '../support/larkmux-cli.js';

/** The names in a process's environment, read from /proc (what the program really got, not what a shell shows). */
function environNames(pid: number): string[] {
  return readFileSync(`/proc/${pid}/environ`).toString('utf8').split('\0').filter(Boolean).map((kv) => kv.slice(0, kv.indexOf('=')));
}

interface Run {
  code: number | null;
  output: string;
}

/** Runs the built `larkmux` in a new pty (a new session, so a different controlling tty) with the given env. */
function inOtherPty(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    const p = pty.spawn(process.execPath, [join(ROOT, 'bin', 'larkmux.js'), ...args], { cols: 120, rows: 20, cwd: ROOT, env: env as Record<string, string> });
    let output = '';
    p.onData((d) => (output += d));
    p.onExit(({ exitCode }) => resolve({ code: exitCode, output }));
  });
}

/** Runs it under `setsid` with no terminal at all. */
function withoutTty(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    const c = spawn('setsid', ['-w', process.execPath, join(ROOT, 'bin', 'larkmux.js'), ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    c.stdout.on('data', (d) => (output += d));
    c.stderr.on('data', (d) => (output += d));
    c.on('exit', (code) => resolve({ code, output }));
  });
}

describe('larkmux where / send from a pane', () => {
  let rig: E2eRig | undefined;
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
  });

  it('inside the pane: `larkmux where` names the session and `larkmux send` posts a file, a picture and text into the topic; the CLI has no TMUX, TMUX_PANE or LARKMUX_HOME; an inherited TMUX does not count', async () => {
    rig = await startRig();
    await rig.start();
    const { fake, home } = rig;
    const appId = rig.appIds[0]!;
    const first = await fake.injectMessage({ chatType: 'p2p', text: 'echo ready-$((2*21))' });
    const chatId = first.chatId;
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('ready-42')), 30_000, 'session up');
    const [session] = (await rig.status()).sessions;
    expect(session).toBeDefined();

    // The CLI (the pane's login bash) got none of larkmux's or tmux's pane variables.
    const pane = await rig.tmux.run(['display-message', '-p', '-t', session.tmuxName, '#{socket_path},#{pid},#{session_id}\t#{pane_id}\t#{pane_pid}']);
    const [tmuxVar, paneVar, panePid] = pane.stdout.trim().split('\t');
    const names = environNames(Number(panePid));
    expect(names).toContain('PATH');
    for (const name of ['TMUX', 'TMUX_PANE', 'LARKMUX_HOME']) expect(names).not.toContain(name);

    // `where` typed into the pane as the README writes it: this installation, this home (the rig's, not ~/.larkmux).
    await fake.injectMessage({ chatType: 'p2p', chatId, text: 'larkmux where; echo where-exit-$?' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('where-exit-')), 30_000, 'where answer');
    const whereText = textsIn(fake, appId, chatId).find((t) => t.includes('where-exit-'))!;
    expect(whereText).toContain('where-exit-0');
    expect(whereText).toContain(session.id);
    expect(whereText).toContain('bot0');

    // `send` a report (a file message), a picture and a CJK text.
    const report = '# 报告\nall green ✅\n';
    writeFileSync(join(home.dir, 'report.md'), report);
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5b1b6e30000000049454e44ae426082', 'hex');
    writeFileSync(join(home.dir, 'shot.png'), png);
    const before = fake.messages.length;
    await fake.injectMessage({ chatType: 'p2p', chatId, text: `larkmux send report.md shot.png --text '你好 $(whoami)'; echo send-exit-$?` });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('send-exit-')), 60_000, 'send answer');
    expect(textsIn(fake, appId, chatId).find((t) => t.includes('send-exit-'))).toContain('send-exit-0');
    const posted = fake.messages.slice(before).filter((m) => m.appId === appId && m.chatId === chatId);
    const fileMsg = posted.find((m) => m.msgType === 'file');
    expect(fileMsg).toBeDefined();
    const upload = fake.fileUploads.find((u) => u.fileKey === (fileMsg!.content as { file_key: string }).file_key);
    expect(upload?.fileName).toBe('report.md');
    expect(upload?.bytes.toString('utf8')).toBe(report);
    const imageMsg = posted.find((m) => m.msgType === 'image');
    expect(fake.uploads.find((u) => u.imageKey === (imageMsg?.content as { image_key: string }).image_key)?.bytes.equals(png)).toBe(true);
    expect(posted.some((m) => m.msgType === 'text' && (m.content as { text: string }).text === '你好 $(whoami)')).toBe(true);

    // A shell that merely inherited the pane's TMUX / TMUX_PANE (another pty, or none) is not in the pane.
    const inherited = { ...home.env, TMUX: tmuxVar!.replace(',$', ','), TMUX_PANE: paneVar! };
    const sentBefore = fake.messages.length;
    const uploadsBefore = fake.fileUploads.length;
    for (const run of [inOtherPty, withoutTty]) {
      const w = await run(['where'], inherited);
      expect(w.output).toContain('not in a larkmux pane');
      expect(w.code).toBe(3);
      const s = await run(['send', join(home.dir, 'report.md')], inherited);
      expect(s.output).toContain('not in a larkmux pane');
      expect(s.code).toBe(3);
    }
    // Naming the pane's own shell pid without being it is refused too (the pid must show the caller's proof).
    const forged = await controlCall(home.paths.controlSocket, { cmd: 'send', caller: { pid: Number(panePid), proof: '0123456789abcdef' }, items: [{ kind: 'text', text: 'forged' }] });
    expect(forged).toEqual({ ok: true, data: { inPane: false } });
    expect(fake.messages.length).toBe(sentBefore);
    expect(fake.fileUploads.length).toBe(uploadsBefore);
  });

  it('a final answer linking ./out.png uploads it as a picture; a link outside the working folder is not uploaded and the topic says so', async () => {
    rig = await startRig();
    await rig.start();
    const { fake, home } = rig;
    const appId = rig.appIds[0]!;
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5b1b6e30000000049454e44ae426082', 'hex');
    writeFileSync(join(home.dir, 'out.png'), png);
    const outsideName = `lmx-outside-${process.pid}-${Date.now()}.txt`;
    const outside = join(home.dir, '..', outsideName);
    writeFileSync(outside, 'secret outside the working folder');
    try {
      const msg = await fake.injectMessage({ chatType: 'p2p', text: `printf '%s\\n' 'done: ![shot](./out.png)' 'and [leak](../${outsideName})' answer-end` });
      const chatId = msg.chatId;
      await fake.waitFor(() => fake.messages.some((m) => m.chatId === chatId && m.msgType === 'image'), 60_000, 'picture from the answer');
      const image = fake.messages.find((m) => m.chatId === chatId && m.msgType === 'image')!;
      expect(fake.uploads.find((u) => u.imageKey === (image.content as { image_key: string }).image_key)?.bytes.equals(png)).toBe(true);
      // The refused link is named in the topic, in the bot's language (the catalogue's words, either locale).
      const notSent = [t('en', 'files.notSent', { path: `../${outsideName}`, reason: t('en', 'files.reasonOutside') }), t('zh-CN', 'files.notSent', { path: `../${outsideName}`, reason: t('zh-CN', 'files.reasonOutside') })];
      await fake.waitFor(() => textsIn(fake, appId, chatId).some((x) => notSent.includes(x)), 30_000, 'not-sent note');
      expect(fake.fileUploads.some((u) => u.bytes.toString('utf8').includes('secret outside'))).toBe(false);
      expect(fake.uploads.some((u) => u.bytes.toString('utf8').includes('secret outside'))).toBe(false);
    } finally {
      rmSync(outside, { force: true });
    }
  });
});
