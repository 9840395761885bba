// What a turn changed in a session placed on another host (issue 29 item 4), through the real daemon (the build: its
// bundle is what ships to a host), the fake Feishu and a real sshd on 127.0.0.1 as host gpu1, shell CLI. A turn that
// edits two files in a git repo on gpu1 gets a change card with both and their +/− counts, the diff page's data (web
// port) has the patch, `/diff` posts the card again; the user's index and HEAD on gpu1 are untouched. Needs `npm run build`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decodeEntities, elementsOf, markdownText, textsIn } from '../support/cards.js';
import type { E2eRig } from '../support/e2e-daemon.js';
import type { FakeMessage } from '../support/fake-feishu/index.js';
import type { DiffPageData } from '../../src/shared/diff-page.js';
import { hostTmux, rigWithHosts } from '../support/host-rig.js';
import { startTestSshd, type TestSshd } from '../support/sshd.js';

let gpu1: TestSshd;
let scratch: string;
let hostRoot: string;
let srv: string;

beforeAll(async () => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-hc-')));
  gpu1 = await startTestSshd();
  hostRoot = join(scratch, 'root');
  srv = join(scratch, 'srv');
  mkdirSync(hostRoot);
  mkdirSync(srv);
}, 60_000);

afterAll(async () => {
  await gpu1?.cleanup();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** A repo with two committed files, at `dir` (on gpu1: the test's sshd serves this machine's own user). */
function gitRepo(dir: string): (...args: string[]) => string {
  mkdirSync(dir);
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { encoding: 'utf8' });
  git('init', '-q');
  writeFileSync(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
  writeFileSync(join(dir, 'b.txt'), 'x\ny\n');
  git('add', '-A');
  git('commit', '-qm', 'start');
  return git;
}

const changeCards = (fake: E2eRig['fake'], chatId: string): FakeMessage[] =>
  fake.messages.filter((m) => m.chatId === chatId && m.msgType === 'interactive' && /files? changed/.test(String((m.content as any)?.header?.title?.content)));

function openUrl(card: unknown, label: string): string | undefined {
  const b = elementsOf(card).find((e) => e.tag === 'button' && e.text?.content === label);
  return b?.behaviors?.find((x: any) => x.type === 'open_url')?.default_url;
}

describe('what changed on another host', () => {
  const rigs: E2eRig[] = [];
  afterEach(async () => {
    await Promise.all(rigs.splice(0).map((r) => r.cleanup()));
    hostTmux(hostRoot, ['kill-server']);
  });

  it('a turn on gpu1 editing two files gets a change card with both and their counts; the diff page and /diff show the patch; the index and HEAD there are untouched', async () => {
    const repo = join(srv, 'app');
    const git = gitRepo(repo);
    const head = git('rev-parse', 'HEAD');
    const rig = await rigWithHosts(rigs, [{ name: 'gpu1', sshd: gpu1, workingDirs: [srv] }], hostRoot);
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const open = await fake.injectMessage({ chatType: 'group', text: `/cd gpu1:${repo}`, mentionBot: true });
    const chatId = open.chatId;
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes(`Folder set to gpu1:${repo}.`)), 30_000, 'placed on gpu1');

    // a.txt: one line replaced (hostile text) and one added (+2 −1); b.txt: one line appended (+1 −0).
    await fake.injectMessage({ chatType: 'group', chatId, rootId: open.messageId, text: `printf 'one\\ntwo\\nTHREE $(touch pwned) 笔记 🎉\\nfour\\n' > a.txt; echo new >> b.txt; echo EDITED-$((1+1))` });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('EDITED-2')), 120_000, 'the answer from gpu1');
    const card = await fake.waitFor(() => changeCards(fake, chatId)[0], 60_000, 'the change card');
    const text = decodeEntities(markdownText(card.content));
    expect((card.content as any).header.title.content).toBe('2 files changed');
    expect(text).toContain('a.txt · +2 −1');
    expect(text).toContain('b.txt · +1 −0');
    expect(text).toContain('+four');

    // The diff page's data, from the web port, for the token holder: the whole patch as gpu1's git made it.
    const url = openUrl(card.content, 'Full diff');
    expect(url).toMatch(/\/s\/[^/]+\/diff\?v=/);
    const page = await fetch(url!);
    expect(page.status).toBe(200);
    const u = new URL(url!);
    const data = await (await fetch(`${u.origin}${u.pathname}.json${u.search}`)).json() as DiffPageData;
    const patch = data.fileDiffs.map((f) => f.text).join('\n');
    expect(data.files).toEqual([{ path: 'a.txt', added: 2, deleted: 1 }, { path: 'b.txt', added: 1, deleted: 0 }]);
    expect(patch).toContain('-three');
    expect(patch).toContain('+THREE $(touch pwned) 笔记 🎉');
    expect(patch).toContain('+new');
    expect(data.patchCut).toBe(false);

    // /diff posts the card again, taken on gpu1 now.
    await fake.injectMessage({ chatType: 'group', chatId, rootId: open.messageId, text: '/diff' });
    await fake.waitFor(() => changeCards(fake, chatId).length >= 2, 60_000, 'the /diff card');
    expect(decodeEntities(markdownText(changeCards(fake, chatId)[1]!.content))).toContain('b.txt · +1 −0');

    // The snapshots used a private index: the user's index and HEAD on gpu1 are as they were.
    expect(git('rev-parse', 'HEAD')).toBe(head);
    expect(git('diff', '--cached', '--name-only')).toBe('');
    expect(git('status', '--porcelain')).toBe(' M a.txt\n M b.txt\n');
    expect(rig.logText()).not.toMatch(/git on the host did not answer/);
  }, 300_000);
});
