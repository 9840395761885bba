// Each daemon command against a fake CommandContext: what it replies and what it sends to the worker.
import type { TapOutcome } from '../../src/daemon/sessions/busy-message.js';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CardActionValue, CardModel } from '../../src/shared/card-model.js';
import type { DisplayMode } from '../../src/shared/ipc.js';
import type { KeyName } from '../../src/shared/keys.js';
import { dispatchCommand } from '../../src/daemon/commands/dispatch.js';
import { listProjects, resolveDir } from '../../src/daemon/commands/projects.js';
import type { CommandBot, CommandContext, GrantTarget } from '../../src/daemon/commands/types.js';
import { NO_GRANTS, type Grants } from '../../src/daemon/ground/permissions.js';
import { anchorOf } from '../../src/daemon/inbound/router.js';
import { newSessionCore, type SessionCore } from '../../src/daemon/ground/session-core.js';
import { translator, type Locale } from '../../src/shared/i18n.js';
import type { BotAdoptScan as AdoptScan } from '../../src/daemon/sessions/adopt.js';
import type { AdoptCandidate } from '../../src/shared/adopt-candidates.js';
import { COMMAND_TABLE } from '../../src/daemon/commands/index.js';
import { SESSIONS_LIST_MAX } from '../../src/daemon/commands/sessions.js';
import { larkmuxCommand } from '../../src/platform/larkmux-command.js';
import { schedulerRig } from '../support/schedule-book.js';

const APP = 'cli_0123456789abcdef';
const NOW = 1_800_000_000_000;

interface Fake extends CommandContext {
  replies: string[];
  /** What the next waiting-message tap answers (busy-message.ts TapOutcome). */
  hurryOutcome: TapOutcome;
  cards: CardModel[];
  keys: { sessionId: string; key: KeyName }[];
  calls: string[];
  session?: SessionCore;
}

function fake(opts: { cli?: CommandBot['cli']; scan?: AdoptScan; user?: string; grants?: Grants; session?: SessionCore | null; dirs?: string[]; projects?: { label: string; path: string }[]; locale?: Locale; diff?: 'posted' | 'none' | 'not_git' | 'no_turn'; host?: string; hosts?: CommandBot['hosts'] } = {}): Fake {
  const s = opts.session === null ? undefined : (opts.session ?? newSessionCore({ appId: APP, anchorId: 'oc_chat', scope: 'chat', chatId: 'oc_chat', chatType: 'p2p', cli: 'claude-code', cwd: '/w/app', ownerId: 'ou_admin', now: NOW - 90_000 }));
  const anchor = anchorOf(
    { kind: 'message', appId: APP, messageId: 'om_1', place: { chatId: 'oc_chat', chatType: 'p2p' }, senderId: opts.user ?? 'ou_admin', senderType: 'user', text: '', mentionsBot: false, createTime: 0 },
    { appId: APP, groupScope: 'thread' },
  );
  const f: Fake = {
    replies: [], cards: [], keys: [], calls: [], session: s, hurryOutcome: { kind: 'act', how: 'steer' },
    bot: { name: 'claude', appId: APP, cli: opts.cli ?? 'claude-code', workingDir: '/w', host: opts.host ?? 'local', hosts: opts.hosts ?? [], defaultPlace: { host: opts.host ?? 'local', dir: opts.host && opts.host !== 'local' ? '/srv' : '/w' }, projects: [], allowedUsers: ['ou_admin'], allowedChats: [] },
    invoker: { userId: opts.user ?? 'ou_admin' },
    anchor,
    grants: opts.grants ?? NO_GRANTS,
    now: NOW,
    schedules: schedulerRig().scheduler,
    // English unless a test asks otherwise: the English assertions below are for a bot with "locale": "en".
    t: translator(opts.locale ?? 'en'),
    async reply(text) { f.replies.push(text); },
    async sendCard(card) { f.cards.push(card); return { ok: true }; },
    currentSession: () => f.session,
    listSessions: () => (f.session ? [f.session] : []),
    sessionRuntime: () => ({ workerLive: true, viewUrl: 'https://box/s/x/' }),
    async closeSession(id) { f.calls.push(`close:${id}`); return { ok: true }; },
    async pressKey(sessionId, key) { f.keys.push({ sessionId, key }); return { ok: true }; },
    async setWorkingDir(path) { f.calls.push(`cwd:${path}`); return { ok: true, appliesTo: f.session ? 'restarted' : 'next_session' }; },
    async isDirectory(path) { return (opts.dirs ?? ['/w', '/w/app', '/w/lib', '/tmp']).includes(path); },
    async listProjects() { return opts.projects ?? [{ label: 'app', path: '/w/app' }, { label: 'lib', path: '/w/lib' }]; },
    async setDisplay(id, mode: DisplayMode) { f.calls.push(`display:${id}:${mode}`); return { ok: true }; },
    async postScreen(id) { f.calls.push(`screen:${id}`); return { ok: true }; },
    async postChanges(id) { f.calls.push(`diff:${id}`); return opts.diff ?? 'posted'; },
    async resumeHeld(id) { f.calls.push(`resume:${id}`); return { kind: 'not_held' as const }; },
    async issueWriteLink(id, userId) { f.calls.push(`link:${id}:${userId}`); return { ok: true, expiresInMinutes: 5 }; },
    async revokeWriteGrants(id) { f.calls.push(`revoke-term:${id}`); return 2; },
    async rotateViewToken(id) { f.calls.push(`rotate-view:${id}`); return { connections: 3 }; },
    async grantTalk(t: GrantTarget) { f.calls.push(`grant:${JSON.stringify(t)}`); return true; },
    async revokeTalk(t: GrantTarget) { f.calls.push(`revoke:${JSON.stringify(t)}`); return false; },
    async readUsage(since: number) { f.calls.push(`usage:${since}`); return { ok: true as const, entries: [] }; },
    tmuxSocket: 'lmx-test',
    async adoptScan() { f.calls.push('adopt-scan'); return opts.scan ?? { ok: true, candidates: [], sharedWindows: 0, leftOut: [], hostTimeoutSeconds: 10, outsideRoots: [] }; },
    async adopt(paneId, pid, host) {
      f.calls.push(`adopt:${host ? `${host}:` : ''}${paneId}:${pid}`);
      const c = (opts.scan?.ok ? opts.scan.candidates : []).find((x) => x.paneId === paneId && x.cliPid === pid && x.host === host);
      return c ? { ok: true, session: f.session!, candidate: c } : { ok: false, code: 'gone' };
    },
    offerAdopt() { f.calls.push('adopt-offer'); },
    async answerSelection(id, promptId, option, text) { f.calls.push(`select:${id}:${promptId}:${option}:${text ?? ''}`); return true; },
    async hurryMessage(id, turnId, how) { f.calls.push(`hurry:${id}:${turnId}:${how}`); return f.hurryOutcome; },
    async answerPicker(path) { f.calls.push(`picker:${path}`); return true; },
    async updateCard(messageId, card) { f.calls.push(`update:${messageId}:${card.kind}`); },
  };
  return f;
}

const GUEST: Grants = { talkUsers: ['ou_guest'], talkChats: [], peerBots: [] };

describe('card taps run their command', () => {
  const tap = (value: CardActionValue, f: Fake, typedText?: string) =>
    COMMAND_TABLE.byTap.get(value.action)!.run(f, value as never, { cardMessageId: 'om_card', ...(typedText ? { typedText } : {}) });
  it.each([
    { outcome: { kind: 'act', how: 'interrupt' }, replies: [] },
    { outcome: { kind: 'already_sent' }, replies: ['This message already went to the CLI; nothing was sent again.'] },
    { outcome: { kind: 'gone' }, replies: ['This message is no longer waiting in this session; nothing was sent.'] },
    { outcome: { kind: 'not_offered' }, replies: ['This CLI cannot take a message while it works; the message keeps waiting.'] },
  ] satisfies { outcome: TapOutcome; replies: string[] }[])('a waiting message tap answered $outcome.kind', async ({ outcome, replies }) => {
    const f = fake();
    f.hurryOutcome = outcome;
    await tap({ action: 'hurry', sessionId: 's1', turnId: 'om_2', how: 'interrupt' }, f);
    expect(f.calls).toEqual(['hurry:s1:om_2:interrupt']);
    expect(f.replies).toEqual(replies);
  });
  it.each([
    { value: { action: 'key', sessionId: 's1', key: 'esc' }, keys: [{ sessionId: 's1', key: 'esc' }], calls: [] },
    { value: { action: 'display', sessionId: 's1', mode: 'text' }, keys: [], calls: ['display:s1:text'] },
    { value: { action: 'screen', sessionId: 's1' }, keys: [], calls: ['screen:s1'] },
    { value: { action: 'close', sessionId: 's1' }, keys: [], calls: ['close:s1'] },
    { value: { action: 'write_link', sessionId: 's1' }, keys: [], calls: ['link:s1:ou_admin'] },
    { value: { action: 'select', sessionId: 's1', promptId: 'p1', optionIndex: 2 }, keys: [], calls: ['select:s1:p1:2:'] },
    { value: { action: 'project', anchorKey: 'k', path: '/w/lib' }, keys: [], calls: ['update:om_card:picker', 'picker:/w/lib'] },
  ] satisfies { value: CardActionValue; keys: unknown[]; calls: string[] }[])('$value.action', async ({ value, keys, calls }) => {
    const f = fake();
    await tap(value, f);
    expect(f.keys).toEqual(keys);
    expect(f.calls).toEqual(calls);
    expect(f.replies).toEqual([]);
  });
  it('a typed answer reaches the selection as typed', async () => {
    const f = fake();
    await tap({ action: 'select', sessionId: 's1', promptId: 'p1', optionIndex: 0 }, f, 'use $(rm -rf /) literally');
    expect(f.calls).toEqual(['select:s1:p1:0:use $(rm -rf /) literally']);
  });
  it('an /adopt list tap adopts the pane and marks the list answered; a stale one says why and leaves the list', async () => {
    const candidate: AdoptCandidate = { paneId: '%3', windowId: '@1', tmuxSession: 'work', windowIndex: 1, cli: 'claude-code', cliPid: 4242, panePid: 4200, cwd: '/w/app' };
    const ok = fake({ session: null, scan: { ok: true, candidates: [candidate], sharedWindows: 0, leftOut: [], hostTimeoutSeconds: 10, outsideRoots: [] } });
    await tap({ action: 'adopt', anchorKey: 'k', paneId: '%3', pid: 4242 }, ok);
    expect(ok.calls).toEqual(['adopt:%3:4242', 'update:om_card:adopt']);
    const stale = fake({ session: null });
    await tap({ action: 'adopt', anchorKey: 'k', paneId: '%3', pid: 4242 }, stale);
    expect(stale.calls).toEqual(['adopt:%3:4242']);
    expect(stale.replies).toHaveLength(1);
  });
});

describe('dispatch', () => {
  it('an unknown command is answered, not dropped', async () => {
    const f = fake();
    expect(await dispatchCommand('nope', '', f)).toMatchObject({ ok: false, code: 'unknown' });
    expect(f.replies[0]).toMatch(/Unknown command \/nope/);
  });
  it('an operate command is refused to a talk-only guest, and nothing runs', async () => {
    const f = fake({ user: 'ou_guest', grants: GUEST });
    expect(await dispatchCommand('close', '', f)).toMatchObject({ ok: false, code: 'denied' });
    expect(f.replies[0]).toBe("/close is only for this bot's operators.");
    expect(f.calls).toEqual([]);
  });
  it('bad arguments get the usage line', async () => {
    const f = fake();
    expect(await dispatchCommand('display', 'sideways', f)).toMatchObject({ ok: false, code: 'bad_args' });
    expect(f.replies[0]).toMatch(/^Usage: \/display screenshot\|text\|hidden/);
  });
  it('aliases resolve to their command', async () => {
    const f = fake();
    expect(await dispatchCommand('st', '', f)).toEqual({ ok: true, command: 'status' });
  });
});

describe('commands', () => {
  it('/help lists every command, marks the CLI-owned /status, and what the invoker may not use', async () => {
    const f = fake({ user: 'ou_guest', grants: GUEST });
    await dispatchCommand('help', '', f);
    const text = f.replies[0]!;
    for (const c of ['/status', '/close', '/cd [host:]<folder>', '/repo', '/display', '/screen', '/term', '/grant', '/revoke', '/revoke-term', '/sessions', '/stop']) expect(text).toContain(c);
    expect(text).toContain('the CLI owns /status here, use /lmx status');
    expect(text).toMatch(/\/close — .*\[not for you\]/);
    expect(text).toMatch(/Passed to the CLI: .*\/compact/);
  });
  it('/status describes the session', async () => {
    const f = fake();
    await dispatchCommand('status', '', f);
    expect(f.replies[0]).toMatch(/Session [0-9a-f]{8} — Starting/);
    expect(f.replies[0]).toContain('Folder: /w/app');
    expect(f.replies[0]).toContain('Last activity: 2m ago');
    expect(f.replies[0]).toContain('Watch: https://box/s/x/');
  });
  it('/status without a session says where the next one starts', async () => {
    const f = fake({ session: null });
    await dispatchCommand('status', '', f);
    expect(f.replies[0]).toMatch(/No session here yet; the next message starts claude-code in \/w/);
  });
  it('/close closes the session here', async () => {
    const f = fake();
    await dispatchCommand('close', '', f);
    expect(f.calls).toEqual([`close:${f.session!.id}`]);
    expect(f.replies[0]).toMatch(/Closed session .* next message here starts a new session/);
  });
  it('/close with no session says so', async () => {
    const f = fake({ session: null });
    await dispatchCommand('close', '', f);
    expect(f.replies[0]).toMatch(/no session here/i);
  });
  it('/stop sends the CLI’s interrupt key to the worker', async () => {
    const f = fake({ user: 'ou_guest', grants: GUEST });
    await dispatchCommand('stop', '', f);
    expect(f.keys).toEqual([{ sessionId: f.session!.id, key: 'esc' }]);
    expect(f.replies[0]).toBe('Sent Esc to interrupt the CLI.');
  });
  it('/stop on a stopped CLI sends nothing', async () => {
    const f = fake();
    f.session = { ...f.session!, lifecycle: 'stopped' };
    await dispatchCommand('stop', '', f);
    expect(f.keys).toEqual([]);
  });
  it('/cd resolves relative to the session folder and restarts the CLI there', async () => {
    const f = fake();
    await dispatchCommand('cd', '../lib', f);
    expect(f.calls).toEqual(['cwd:/w/lib']);
    expect(f.replies[0]).toBe('Folder set to /w/lib. The CLI was stopped; your next message starts it there.');
  });
  it('/cd refuses a folder that does not exist', async () => {
    const f = fake();
    await dispatchCommand('cd', '/nope', f);
    expect(f.calls).toEqual([]);
    expect(f.replies[0]).toBe('/nope is not a folder on this machine.');
  });
  it.each([
    // [what, /cd argument, the bot's default host, the place set (none: refused), the reply]
    ['a host:dir places the session there, unchecked on this machine', 'gpu1:/srv/app/../app2', 'local', 'gpu1:/srv/app2', 'Folder set to gpu1:/srv/app2. The CLI was stopped; your next message starts it there.'],
    ['a bare folder goes to the bot\'s default host', '/srv/x', 'gpu1', 'gpu1:/srv/x', 'Folder set to gpu1:/srv/x. The CLI was stopped; your next message starts it there.'],
    ['local: stays on this machine and is checked here', 'local:/w/lib', 'gpu1', '/w/lib', 'Folder set to /w/lib. The CLI was stopped; your next message starts it there.'],
    ['an unknown host lists the known ones', 'nope:/x', 'local', null, 'There is no host "nope". Known hosts: local, gpu1. Write /cd host:/folder with one of them (`larkmux hosts` lists them).'],
    ['a folder outside the host\'s roots is refused', 'gpu1:/etc', 'local', null, '/etc is outside the folders sessions may use on gpu1 (/srv); pick a folder under one of them.'],
  ])('/cd with hosts: %s', async (_what, arg, host, placed, reply) => {
    const f = fake({ host, hosts: [{ name: 'gpu1', workingDirs: ['/srv'] }] });
    await dispatchCommand('cd', arg, f);
    expect(f.calls).toEqual(placed ? [`cwd:${placed}`] : []);
    expect(f.replies).toEqual([reply]);
  });
  it('/status without a session says where the next one starts: the bot\'s default host and folder there', async () => {
    const f = fake({ session: null, host: 'gpu1', hosts: [{ name: 'gpu1', workingDirs: ['/srv'] }] });
    await dispatchCommand('status', '', f);
    expect(f.replies[0]).toContain('in gpu1:/srv.');
  });
  it('/status and /sessions name the host of a session that is not on this machine', async () => {
    const f = fake();
    f.session = { ...f.session!, host: 'gpu1', cwd: '/srv/app' };
    await dispatchCommand('status', '', f);
    expect(f.replies[0]).toContain('Host: gpu1');
    await dispatchCommand('sessions', '', f);
    expect(f.replies[1]).toContain('gpu1:/srv/app');
    const local = fake();
    await dispatchCommand('status', '', local);
    expect(local.replies[0]).not.toContain('Host:');
  });
  it('/repo sends a picker card with the projects', async () => {
    const f = fake();
    await dispatchCommand('repo', '', f);
    expect(f.cards).toEqual([{ kind: 'picker', anchorKey: f.anchor.sessionKey, title: 'Choose a project', projects: [{ label: 'app', path: '/w/app' }, { label: 'lib', path: '/w/lib' }], chosen: '/w/app' }]);
  });
  it('/repo <name> switches directly; an unknown name lists the known ones', async () => {
    const f = fake({ session: null });
    await dispatchCommand('repo', 'lib', f);
    expect(f.calls).toEqual(['cwd:/w/lib']);
    expect(f.replies[0]).toBe('Project lib (/w/lib). Your next message starts the CLI there.');
    await dispatchCommand('repo', 'zzz', f);
    expect(f.replies[1]).toBe('No project named "zzz". Known: app, lib');
  });
  it('/repo with no projects explains how to get some', async () => {
    const f = fake({ projects: [] });
    await dispatchCommand('repo', '', f);
    expect(f.replies[0]).toMatch(/No projects found/);
  });
  // The worker side of setDisplay (the card and the worker in one step) is in daemon-command-context.test.ts.
  it('/display text changes the card and the worker', async () => {
    const f = fake();
    await dispatchCommand('display', 'TEXT', f);
    expect(f.calls).toEqual([`display:${f.session!.id}:text`]);
    expect(f.replies[0]).toBe('The card now shows the screen as text.');
  });
  it('/screen posts the screen once', async () => {
    const f = fake();
    await dispatchCommand('screen', '', f);
    expect(f.calls).toEqual([`screen:${f.session!.id}`]);
    expect(f.replies).toEqual([]);
  });
  it('/term DMs a link and never puts it in the chat', async () => {
    const f = fake();
    await dispatchCommand('term', '', f);
    expect(f.calls).toEqual([`link:${f.session!.id}:ou_admin`]);
    expect(f.replies[0]).toBe('I sent you a private link in a direct message. It works once and expires in 5 minutes.');
  });
  it('/revoke-term reports how many grants ended', async () => {
    const f = fake();
    await dispatchCommand('revoke-term', '', f);
    expect(f.replies[0]).toBe('Revoked 2 write grants; the web terminal is read-only again.');
  });
  it.each(['term', 'revoke-term'])('/%s is refused to a talk-only guest (talk never yields operate)', async (name) => {
    const g = fake({ user: 'ou_guest', grants: GUEST });
    expect(await dispatchCommand(name, '', g)).toMatchObject({ ok: false, code: 'denied' });
    expect(g.calls.filter((c) => c.startsWith('link') || c.startsWith('revoke-term'))).toEqual([]);
  });
  it('/revoke-term --view rotates the view token (operators only) and says how many views closed', async () => {
    const f = fake();
    await dispatchCommand('revoke-term', '--view', f);
    expect(f.calls).toEqual([`rotate-view:${f.session!.id}`]);
    expect(f.replies[0]).toBe('Made a new view link for this session; old card links stop working. 3 open view(s) were closed.');
    const g = fake({ user: 'ou_guest', grants: GUEST });
    await dispatchCommand('revoke-term', '--view', g);
    expect(g.calls.filter((c) => c.startsWith('rotate-view'))).toEqual([]);
  });
  it('/grant adds a user or this chat; only the owner may', async () => {
    const f = fake();
    await dispatchCommand('grant', 'ou_bob1', f);
    await dispatchCommand('grant', 'chat', f);
    expect(f.calls).toEqual(['grant:{"user":"ou_bob1"}', 'grant:{"chat":"oc_chat"}']);
    expect(f.replies).toEqual(['ou_bob1 may now talk to claude.', 'Everyone in this chat may now talk to claude.']);
    const g = fake({ user: 'ou_guest', grants: GUEST });
    await dispatchCommand('grant', 'ou_bob1', g);
    expect(g.calls).toEqual([]);
    expect(g.replies[0]).toBe("/grant is only for this bot's owner.");
  });
  it('/grant on a bot that runs what it is sent says that talking there is operating (issue 31 item 6), in both languages', async () => {
    const cases: [CommandBot['cli'], Locale][] = [['shell', 'en'], [{ command: 'htop', args: [], readyPattern: 'x' }, 'zh-CN']];
    for (const [cli, locale] of cases) {
      const f = fake({ locale, cli });
      await dispatchCommand('grant', 'chat', f);
      expect(f.calls).toEqual(['grant:{"chat":"oc_chat"}']);
      expect(f.replies[0]).toBe(`${translator(locale)('cmd.grant.done', { who: translator(locale)('cmd.grant.chat'), bot: 'claude' })} ${translator(locale)('cmd.grant.operates')}`);
    }
    expect(translator('en')('cmd.grant.operates')).toMatch(/whoever may talk to it can also operate it/);
  });
  it('/revoke of a grant that does not exist says so', async () => {
    const f = fake();
    await dispatchCommand('revoke', 'ou_bob1', f);
    expect(f.calls).toEqual(['revoke:{"user":"ou_bob1"}']);
    expect(f.replies[0]).toMatch(/had no talk grant/);
  });
  it('/sessions lists open sessions and marks this one', async () => {
    const f = fake();
    await dispatchCommand('sessions', '', f);
    expect(f.replies[0]).toMatch(/^1 open session:\n[0-9a-f]{8} Starting · live · \/w\/app · 2m ago ← here$/);
  });
  it('/sessions beyond its list names the host command in the form the CLI uses (issue 32 item 9)', async () => {
    const f = fake();
    const many = Array.from({ length: SESSIONS_LIST_MAX + 3 }, (_, i) => newSessionCore({ appId: APP, anchorId: `oc_${i}`, scope: 'chat', chatId: `oc_${i}`, chatType: 'p2p', cli: 'claude-code', cwd: '/w/app', ownerId: 'ou_admin', now: NOW - i * 1000 }));
    f.listSessions = () => many;
    // Started through npx: the daemon inherits npm's variables, and so does the decision.
    const saved = process.env.npm_command;
    process.env.npm_command = 'exec';
    try {
      await dispatchCommand('sessions', '', f);
      expect(larkmuxCommand()).toBe('npx larkmux');
      expect(f.replies[0]!.split('\n').at(-1)).toBe('… and 3 more (npx larkmux sessions on the host lists all).');
    } finally {
      if (saved === undefined) delete process.env.npm_command;
      else process.env.npm_command = saved;
    }
  });
});

describe('commands in Simplified Chinese (a Feishu bot without a locale)', () => {
  it('/close, /status, a refusal and the usage line read in Chinese', async () => {
    const closed = fake({ locale: 'zh-CN' });
    await dispatchCommand('close', '', closed);
    expect(closed.replies).toEqual([`会话 ${closed.session!.id.slice(0, 8)} 已关闭，CLI 已停止。在这里发下一条消息会开始新会话。`]);

    const st = fake({ locale: 'zh-CN' });
    await dispatchCommand('status', '', st);
    expect(st.replies[0]!.split('\n')).toEqual([
      `会话 ${st.session!.id.slice(0, 8)} — 启动中`, 'CLI：claude-code', '目录：/w/app', '进程：运行中，已连接', '最近活动：2 分钟前', '查看：https://box/s/x/', '机器人 claude：1 个进行中的会话。',
    ]);

    const guest = fake({ locale: 'zh-CN', user: 'ou_guest', grants: GUEST });
    await dispatchCommand('close', '', guest);
    expect(guest.replies).toEqual(['/close 仅限这个机器人的操作员使用。']);

    const usage = fake({ locale: 'zh-CN' });
    await dispatchCommand('cd', '', usage);
    expect(usage.replies).toEqual(['用法：/cd [host:]<folder>（需要指定目录）']);

    const none = fake({ locale: 'zh-CN', session: null });
    await dispatchCommand('term', '', none);
    expect(none.replies).toEqual(['这里还没有会话。发一条消息即可开始。']);
  });
});

describe('projects (real folders)', () => {
  const root = mkdtempSync(join(tmpdir(), 'lmx-projects-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  it('lists configured folders first, then git repos under workingDir; plain folders are skipped', async () => {
    for (const d of ['a/.git', 'b', 'c/.git', '.hidden/.git', 'extra']) mkdirSync(join(root, d), { recursive: true });
    writeFileSync(join(root, 'b', '.git'), 'gitdir: elsewhere\n'); // a worktree: .git is a file
    const got = await listProjects(root, ['extra', '/does/not/exist', join(root, 'a')], '/home/u');
    expect(got).toEqual([
      { label: 'extra', path: join(root, 'extra') },
      { label: 'a', path: join(root, 'a') },
      { label: 'b', path: join(root, 'b') },
      { label: 'c', path: join(root, 'c') },
    ]);
  });
  it.each([
    { input: '~', base: '/w', want: '/home/u' },
    { input: '~/x', base: '/w', want: '/home/u/x' },
    { input: '/abs/../p', base: '/w', want: '/p' },
    { input: 'rel', base: '/w/app', want: '/w/app/rel' },
  ])('resolveDir($input)', ({ input, base, want }) => {
    expect(resolveDir(input, base, '/home/u')).toBe(want);
  });
});

describe('/adopt (issue 17)', () => {
  const claude = { paneId: '%3', windowId: '@2', tmuxSession: 'mine', windowIndex: 0, cli: 'claude-code' as const, cliPid: 4242, panePid: 4200, cwd: '/w/app' };
  const codex = { ...claude, paneId: '%7', windowId: '@5', tmuxSession: 'other', cli: 'codex' as const, cliPid: 5151, panePid: 5100 };
  const scan: AdoptScan = { ok: true, candidates: [claude, codex], sharedWindows: 0, leftOut: [], hostTimeoutSeconds: 10, outsideRoots: [] };

  it('is for operators only: a talk-only guest is refused and nothing is scanned', async () => {
    const f = fake({ user: 'ou_guest', grants: GUEST, session: null, scan });
    expect(await dispatchCommand('adopt', '', f)).toMatchObject({ ok: false, code: 'denied' });
    expect(f.replies[0]).toBe("/adopt is only for this bot's operators.");
    expect(f.calls).toEqual([]);
  });
  it('lists the candidates as a card with one button each, and remembers the offer', async () => {
    const f = fake({ session: null, scan });
    await dispatchCommand('adopt', '', f);
    expect(f.calls).toEqual(['adopt-scan', 'adopt-offer']);
    const card = f.cards[0]!;
    expect(card.kind).toBe('adopt');
    if (card.kind !== 'adopt') return;
    expect(card.candidates).toEqual([
      { label: '1. claude-code · mine:0 · /w/app (pid 4242)', paneId: '%3', pid: 4242 },
      { label: '2. codex · other:0 · /w/app (pid 5151)', paneId: '%7', pid: 5151 },
    ]);
  });
  it("a host's panes are named host:session:window, its button carries the host, and a host left out is said in one line", async () => {
    const onB = { ...claude, host: 'b' };
    const f = fake({ session: null, scan: { ok: true, candidates: [claude, onB], sharedWindows: 0, leftOut: [{ host: 'gpu', reason: null }, { host: 'c', reason: 'Connection refused' }], hostTimeoutSeconds: 10, outsideRoots: [] } });
    await dispatchCommand('adopt', '', f);
    const card = f.cards[0]!;
    if (card.kind !== 'adopt') throw new Error('not an adopt card');
    expect(card.candidates[1]).toEqual({ label: '2. claude-code · b:mine:0 · /w/app (pid 4242)', paneId: '%3', pid: 4242, host: 'b' });
    expect(f.replies.at(-1)).toBe('Host gpu is left out of this list: no answer within 10 s\nHost c is left out of this list: Connection refused');
    await dispatchCommand('adopt', '2', f);
    expect(f.calls.at(-1)).toBe('adopt:b:%3:4242');
    expect(f.replies.at(-1)).toMatch(/^Adopted claude-code in b:mine:0 /);
  });
  it("a host's panes outside its workingDirs are said in one line; a pane that moved outside them is refused by name", async () => {
    const f = fake({ session: null, scan: { ok: true, candidates: [claude], sharedWindows: 0, leftOut: [], hostTimeoutSeconds: 10, outsideRoots: [{ host: 'b', count: 2, roots: ['/srv', '/data'] }] } });
    await dispatchCommand('adopt', '', f);
    expect(f.replies.at(-1)).toBe("2 more pane(s) on b run a CLI in a folder outside that host's workingDirs (/srv, /data): not offered.");
    f.adopt = async () => ({ ok: false, code: 'outside_roots', host: 'b', cwd: '/tmp/x', roots: ['/srv'] });
    await dispatchCommand('adopt', '1', f);
    expect(f.replies.at(-1)).toBe("Not taken over: the pane's folder /tmp/x on b is outside that host's workingDirs (/srv). Nothing changed in the pane.");
  });
  it('/adopt 2 takes the second pane over by pane and pid', async () => {
    const f = fake({ session: null, scan });
    await dispatchCommand('adopt', '2', f);
    expect(f.calls).toEqual(['adopt-scan', 'adopt:%7:5151']);
    expect(f.replies[0]).toMatch(/^Adopted codex in other:0 \(pid 5151, folder \/w\/app\)/);
  });
  it('a number not on the list, a word, and a topic that has a session are refused with a reason', async () => {
    const f = fake({ session: null, scan });
    await dispatchCommand('adopt', '3', f);
    expect(f.replies.at(-1)).toBe('There is no pane 3. Send /adopt to see the list.');
    await dispatchCommand('adopt', 'claude', f);
    expect(f.replies.at(-1)).toMatch(/Usage: \/adopt \[n\].*number from the list/);
    const busy = fake({ scan });
    await dispatchCommand('adopt', '', busy);
    expect(busy.replies[0]).toMatch(/already has a session/);
    expect(busy.calls).toEqual([]);
  });
  it("with nothing to adopt, says how to start a CLI on larkmux's server", async () => {
    const f = fake({ session: null, scan: { ok: true, candidates: [], sharedWindows: 1, leftOut: [], hostTimeoutSeconds: 10, outsideRoots: [] } });
    await dispatchCommand('adopt', '', f);
    expect(f.replies[0]).toContain('tmux -L lmx-test new-session -s mine claude');
    expect(f.replies[0]).toMatch(/1 more pane\(s\) run a CLI but share a window/);
  });
});
