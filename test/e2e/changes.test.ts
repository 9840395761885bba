// What a turn changed, through the real daemon: a turn that edits two files in a git repo gets a change card with
// both files and their +/− counts; the diff page shows the hunks to a view-token holder (Chromium) and is the uniform
// 404 without the token; /diff posts the card again on demand.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decodeEntities, elementsOf, markdownText, textsIn } from '../support/cards.js';
import { buildWebBundle, launchChromium } from '../support/browser.js';
import { startRig, type E2eRig } from '../support/e2e-daemon.js';
import type { FakeMessage } from '../support/fake-feishu/index.js';

function gitRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lmx-e2e-git-'));
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { stdio: 'pipe' });
  git('init', '-q');
  writeFileSync(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
  writeFileSync(join(dir, 'b.txt'), 'x\ny\n');
  git('add', '-A');
  git('commit', '-qm', 'start');
  return dir;
}

const changeCards = (fake: E2eRig['fake'], chatId: string): FakeMessage[] =>
  fake.messages.filter((m) => m.chatId === chatId && m.msgType === 'interactive' && /files changed/.test(String((m.content as any)?.header?.title?.content)));

function openUrl(card: unknown, label: string): string | undefined {
  const b = elementsOf(card).find((e) => e.tag === 'button' && e.text?.content === label);
  return b?.behaviors?.find((x: any) => x.type === 'open_url')?.default_url;
}

describe('what changed', () => {
  let browser: Browser;
  let rig: E2eRig | undefined;
  let repo: string | undefined;
  beforeAll(async () => {
    buildWebBundle();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    await rig?.cleanup();
    rig = undefined;
    if (repo) rmSync(repo, { recursive: true, force: true });
  });

  it('a turn editing two files gets a change card with both and their +/− counts; the diff page shows the hunks to the token holder only', { timeout: 150_000 }, async () => {
    repo = gitRepo();
    rig = await startRig({ botOverrides: { workingDir: repo } });
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    // a.txt: one line replaced (hostile text) and one added (+2 −1); b.txt: one line appended (+1 −0).
    const msg = await fake.injectMessage({ chatType: 'p2p', text: `printf 'one\\ntwo\\nTHREE <at user_id="all"></at> [x](https://evil.example)\\nfour\\n' > a.txt; echo new >> b.txt; echo EDITED-$((1+1))` });
    await fake.waitFor(() => textsIn(fake, appId, msg.chatId).some((t) => t.includes('EDITED-2')), 30_000, 'answer');
    const card = await fake.waitFor(() => changeCards(fake, msg.chatId)[0], 30_000, 'change card');
    const text = decodeEntities(markdownText(card.content));
    expect(text).toContain('a.txt · +2 −1');
    expect(text).toContain('b.txt · +1 −0');
    expect((card.content as any).header.title.content).toBe('2 files changed');
    // The first hunk of the largest change (a.txt), as text: the mention tag never reaches the card as a tag.
    expect(text).toContain('+four');
    expect(JSON.stringify(card.content)).not.toMatch(/<at /);

    // The whole diff for the token holder, in a real browser.
    const url = openUrl(card.content, 'Full diff');
    expect(url).toMatch(/\/s\/[^/]+\/diff\?v=/);
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(url!);
    await page.waitForSelector('section.file');
    const shown = await page.locator('#diff').innerText();
    expect(shown).toContain('-three');
    expect(shown).toContain('+THREE <at user_id="all"></at> [x](https://evil.example)');
    expect(shown).toContain('+new');
    expect(await page.locator('#diff at, #diff a').count()).toBe(0);
    expect(await page.locator('#files li').allInnerTexts()).toEqual(['a.txt +2 −1', 'b.txt +1 −0']);
    await ctx.close();

    // Without the token (or with a wrong one): the same 404 as a session that does not exist.
    const base = url!.slice(0, url!.indexOf('/s/'));
    const sessionPath = new URL(url!).pathname.replace(/diff$/, '');
    const unknown = await fetch(`${base}/s/00000000-0000-4000-8000-000000000000/diff`);
    const unknownBody = await unknown.text();
    for (const path of [`${sessionPath}diff`, `${sessionPath}diff.json`, `${sessionPath}diff.json?v=wrong-token`]) {
      const r = await fetch(`${base}${path}`);
      expect(r.status).toBe(404);
      expect(await r.text()).toBe(unknownBody);
    }
    const data = await (await fetch(`${base}${sessionPath}diff.json?v=${new URL(url!).searchParams.get('v')}`)).json() as { files: unknown[] };
    expect(data.files).toHaveLength(2);

    // /diff posts the change card again, on demand.
    const again = await fake.injectMessage({ chatType: 'p2p', chatId: msg.chatId, text: '/diff' });
    await fake.waitFor(() => changeCards(fake, msg.chatId).length >= 2, 20_000, '/diff card');
    expect(again.messageId).toBeTruthy();
    expect(decodeEntities(markdownText(changeCards(fake, msg.chatId)[1]!.content))).toContain('b.txt · +1 −0');
  });

  it('a turn that changes nothing posts no change card, and /diff says there is none', { timeout: 120_000 }, async () => {
    repo = gitRepo();
    rig = await startRig({ botOverrides: { workingDir: repo } });
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const msg = await fake.injectMessage({ chatType: 'p2p', text: 'echo QUIET-$((2+3))' });
    await fake.waitFor(() => textsIn(fake, appId, msg.chatId).some((t) => t.includes('QUIET-5')), 30_000, 'answer');
    await new Promise((r) => setTimeout(r, 3000));
    expect(changeCards(fake, msg.chatId)).toEqual([]);
    await fake.injectMessage({ chatType: 'p2p', chatId: msg.chatId, text: '/diff' });
    await fake.waitFor(() => textsIn(fake, appId, msg.chatId).some((t) => t.includes('No changes since the last turn began')), 20_000, '/diff says none');
  });
});
