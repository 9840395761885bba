// The writable web terminal of a session on another host (issue 29 item 4): the browser talks only to the daemon's
// web port; the worker on host B serves its terminal on a 0600 unix socket in its run folder there (no TCP listener),
// and the daemon reaches it through an OpenSSH stream-local forward on B's ControlMaster. Real daemon (the build: the
// bundle is what ships to B), fake Feishu, a real sshd on 127.0.0.1 as B, real Chromium. Needs `npm run build`.
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMaster, sshPlaces } from '../../src/platform/ssh/ssh-run.js';
import { launchChromium } from '../support/browser.js';
import { cardsFor, elementsOf, textsIn } from '../support/cards.js';
import type { E2eRig } from '../support/e2e-daemon.js';
import { hostTmux as hostTmuxOf, rigWithHosts } from '../support/host-rig.js';
import { startTestSshd, type TestSshd } from '../support/sshd.js';
import { until } from '../support/until.js';

let sshd: TestSshd;
/** larkmux's folder on host B (LARKMUX_REMOTE_ROOT). */
let hostRoot: string;
/** B's working root. */
let srv: string;
let browser: Browser;
let rig: E2eRig | undefined;

beforeAll(async () => {
  sshd = await startTestSshd();
  hostRoot = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-b-')));
  srv = realpathSync(mkdtempSync(join(tmpdir(), 'lmx-srv-')));
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await rig?.cleanup();
  hostTmux(['kill-server']);
  await sshd?.cleanup();
  for (const d of [hostRoot, srv]) if (d) rmSync(d, { recursive: true, force: true });
});

/** The tmux server larkmux's workers use on B: the one its folder there derives. */
const hostTmux = (args: string[]) => hostTmuxOf(hostRoot, args);

/** Everything B's pane shows and scrolled past. */
function hostPaneText(): string {
  const [pane] = hostTmux(['list-panes', '-a', '-F', '#{pane_id}']).stdout.split('\n').filter(Boolean);
  return pane ? hostTmux(['capture-pane', '-p', '-J', '-S', '-', '-t', pane]).stdout : '';
}

function openUrl(card: unknown, label: string): string | undefined {
  const b = elementsOf(card).find((e) => e.tag === 'button' && e.text?.content === label);
  return b?.behaviors?.find((x: any) => x.type === 'open_url')?.default_url;
}

/** Unix sockets in `dir` (none when it does not exist). */
const socketsIn = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((n) => lstatSync(join(dir, n)).isSocket()) : []);

describe('the web terminal of a session on another host', () => {
  it('the card\'s link shows B\'s pane and /term\'s write link types into it, through a forward on the ControlMaster; again after the link is cut', { timeout: 300_000 }, async () => {
    rig = await rigWithHosts([], [{ name: 'gpu1', sshd, workingDirs: [srv] }], hostRoot);
    const gpu1 = { name: 'gpu1', ssh: sshd.target, port: sshd.port, identityFile: sshd.clientKey };
    const places = sshPlaces(rig.home.paths);
    const { fake } = rig;
    const appId = rig.appIds[0]!;

    const open = await fake.injectMessage({ chatType: 'group', text: `/cd gpu1:${srv}`, mentionBot: true });
    const chatId = open.chatId;
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes(`Folder set to gpu1:${srv}.`)), 30_000, 'the placement');
    await fake.injectMessage({ chatType: 'group', chatId, rootId: open.messageId, text: 'echo ran-on-b-$((6*7))' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('ran-on-b-42')), 120_000, 'the answer from B');
    const viewUrl = await until('the view link on the card', () => cardsFor(fake, appId, open.messageId).map((c) => openUrl(c.content, 'Web terminal')).find(Boolean), 60_000);
    const webUrl = (await rig.status()).webUrl as string;
    expect(viewUrl.startsWith(`${webUrl}/s/`)).toBe(true);

    // Read-only from the card: B's pane in the page.
    const viewer = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const vpage = await viewer.newPage();
    await vpage.goto(viewUrl);
    await vpage.waitForSelector('body[data-state="open"][data-mode="read"]', { timeout: 60_000 });
    await until('B\'s pane in the page', async () => (await vpage.locator('.xterm-rows').innerText()).includes('ran-on-b-42'), 30_000);

    // On B: the worker's socket in its run folder, 0600; the worker listens on no TCP port.
    const hostRun = join(hostRoot, 'run');
    const [sock] = socketsIn(hostRun).filter((n) => n.startsWith('web-'));
    expect(sock, 'the worker\'s web terminal socket on B').toBeDefined();
    expect(lstatSync(join(hostRun, sock!)).mode & 0o777).toBe(0o600);
    const session = (await rig.status()).sessions.find((s: { key: string }) => s.key.startsWith(open.messageId));
    const workerPid = session?.workerPid as number | undefined;
    expect(workerPid, 'the worker\'s pid on B').toBeGreaterThan(0);
    expect(spawnSync('ss', ['-ltnpH'], { encoding: 'utf8' }).stdout).not.toContain(`pid=${workerPid},`);
    // Here: the local end of the forward in the daemon's run folder (or its short fallback), 0600, held by ssh.
    const localEnds = [places.runDir, places.fallbackRunDir].flatMap((d) => socketsIn(d).filter((n) => n.startsWith('web-fwd-')).map((n) => join(d, n)));
    expect(localEnds).toHaveLength(1);
    expect(lstatSync(localEnds[0]!).mode & 0o777).toBe(0o600);

    // /term's write link: typed in Chromium, run in B's pane (quotes and `$(…)` typed literally, run by B's shell only).
    const written = await typeThroughWriteLink(rig, chatId, open.messageId, `echo web-on-b-$((6*7)) '$(id)' "q" 中文✓🙂`);
    await until('the typed command ran in B\'s pane', () => hostPaneText().includes('web-on-b-42 $(id) q 中文✓🙂'), 30_000);
    await written.close();
    await viewer.close();

    // The ControlMaster is cut: the worker goes with the link, its forward with it; the next message brings a worker
    // back, and the web terminal works again through a new forward.
    expect(await closeMaster(gpu1, places, rig.home.env)).toBe(true);
    await until('the forward\'s local end removed', () => !existsSync(localEnds[0]!), 30_000);
    await fake.injectMessage({ chatType: 'group', chatId, rootId: open.messageId, text: 'echo again-on-b-$((7*7))' });
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('again-on-b-49')), 120_000, 'the answer after the reconnect');
    const again = await typeThroughWriteLink(rig, chatId, open.messageId, 'echo back-on-b-$((8*8))');
    await until('typed again after the reconnect', () => hostPaneText().includes('back-on-b-64'), 30_000);
    await again.close();
    const ends = () => [places.runDir, places.fallbackRunDir].flatMap((d) => socketsIn(d).filter((n) => n.startsWith('web-fwd-')));
    expect(ends()).toHaveLength(1);

    // /close: the worker goes, and with it its socket on B and the forward's local end here.
    await fake.injectMessage({ chatType: 'group', chatId, rootId: open.messageId, text: '/close' });
    await until('the forward cancelled and both sockets gone', () => ends().length === 0 && socketsIn(hostRun).every((n) => !n.startsWith('web-')), 60_000);
  });
});

/** `/term` in the topic, the DM'd link opened and its button tapped in Chromium, `line` typed and Enter pressed. */
async function typeThroughWriteLink(r: E2eRig, chatId: string, rootId: string, line: string) {
  const { fake } = r;
  const appId = r.appIds[0]!;
  const before = new Set(fake.messages.map((m) => m.messageId));
  await fake.injectMessage({ chatType: 'group', chatId, rootId, text: '/term' });
  const dm = await until('the DM with the write link', () =>
    fake.messages.find((m) => !before.has(m.messageId) && m.appId === appId && m.msgType === 'text' && String((m.content as any).text).includes('/w/')), 30_000);
  const link = /(http:\/\/\S+\/w\/[A-Za-z0-9_-]+)/.exec(String((dm.content as any).text))![1]!;
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await ctx.newPage();
  await page.goto(link);
  await page.click('#open-write');
  await page.waitForSelector('body[data-state="open"][data-mode="write"]', { timeout: 60_000 });
  await page.locator('.xterm-screen').click();
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
  return ctx;
}
