// The CommandContext a daemon command runs with: the bot runtime's services, seen from one chat place and invoker.
import type { Translate } from '../../shared/i18n.js';
import { botLocale } from '../../shared/config.js';
import type { CardModel } from '../../shared/card-model.js';
import { IPC_LIMITS, type DisplayMode, type HurryHow, type Requester } from '../../shared/ipc.js';
import type { TapOutcome } from '../sessions/busy-message.js';
import type { KeyName } from '../../shared/keys.js';
import type { BotRuntimeHandle } from './bot-runtime-handle.js';
import { isDirectory, listProjects, PROJECT_SCAN, type Project } from '../commands/projects.js';
import type { CommandBot, CommandContext, CommandResult, GrantTarget, SessionProcessInfo } from '../commands/types.js';
import type { Grants } from '../ground/permissions.js';
import type { Anchor } from '../ground/anchor.js';
import { isOpenSession, type SessionCore } from '../ground/session-core.js';
import { delivered, type SendOutcome } from '../workers/session-worker.js';
import { expandHome } from '../../platform/paths.js';
import { LOCAL_HOST } from '../../shared/host-config.js';
import { newSessionDir } from '../sessions/session-placement.js';
import { hostPickerEntries, readPlace } from '../../shared/session-place.js';
import { adoptPane, rememberOffer, scanForBot, type AdoptOutcome, type BotAdoptScan } from '../sessions/adopt.js';
import type { UsageEntry } from '../../shared/usage-ledger.js';
import { readUsageLedger, usageLedgerDir } from '../../platform/usage-ledger-file.js';
import type { ScheduleBook } from '../schedules/scheduler.js';
import type { ResumeOutcome } from '../sessions/session-holds.js';

const OK: CommandResult = { ok: true };

export class BotCommandContext implements CommandContext {
  readonly now = Date.now();
  readonly grants: Grants;
  readonly bot: CommandBot;
  readonly t: Translate;

  constructor(
    private readonly rt: BotRuntimeHandle,
    readonly anchor: Anchor,
    readonly invoker: { userId: string; name?: string },
  ) {
    this.grants = rt.grants();
    this.t = rt.t;
    const b = rt.bot;
    this.bot = {
      name: b.name,
      appId: b.appId,
      cli: b.cli,
      workingDir: expandHome(b.workingDir),
      host: b.host ?? LOCAL_HOST,
      hosts: rt.hosts,
      defaultPlace: { host: b.host ?? LOCAL_HOST, dir: newSessionDir(b, rt.hosts, b.host ?? LOCAL_HOST) },
      projects: b.projects.map((p) => expandHome(p)),
      allowedUsers: b.allowedUsers,
      allowedChats: b.allowedChats,
      locale: botLocale(b),
    };
  }

  get schedules(): ScheduleBook {
    return this.rt.scheduler;
  }

  async reply(text: string): Promise<void> {
    await this.rt.im.sendText(this.anchor.place, text, this.anchor.replyTo);
  }

  async sendCard(card: CardModel): Promise<CommandResult> {
    const res = await this.rt.im.sendCard(this.anchor.place, card, this.anchor.replyTo);
    return res.ok ? OK : { ok: false, code: res.code, message: res.message };
  }

  currentSession(): SessionCore | undefined {
    const s = this.rt.sessions.getByKey(this.anchor.sessionKey);
    return isOpenSession(s) ? s : undefined;
  }

  listSessions(): readonly SessionCore[] {
    return this.rt.sessions.all();
  }

  sessionRuntime(sessionId: string): SessionProcessInfo | undefined {
    if (!this.rt.sessions.get(sessionId)) return undefined;
    const viewUrl = this.rt.web?.viewUrl(sessionId);
    return { workerLive: this.rt.sessions.workerLive(sessionId), ...(viewUrl ? { viewUrl } : {}) };
  }

  async closeSession(sessionId: string): Promise<CommandResult> {
    return (await this.rt.sessions.close(sessionId)) ? OK : { ok: false, code: 'not_open', message: this.t('cmd.err.notOpen') };
  }

  async pressKey(sessionId: string, key: KeyName): Promise<CommandResult> {
    const s = this.rt.sessions.get(sessionId);
    if (!s) return { ok: false, code: 'unknown_session', message: this.t('cmd.err.noSuchSession') };
    return this.result(this.rt.sessions.worker(s).key(key, this.requester()));
  }

  /** The invoker as the worker names who acted (its log and the card's "answered by"). */
  private requester(): Requester {
    return { userId: this.invoker.userId, ...(this.invoker.name ? { name: this.invoker.name } : {}) };
  }

  private result(outcome: SendOutcome): CommandResult {
    if (delivered(outcome)) return OK;
    return outcome === 'no_worker'
      ? { ok: false, code: 'no_worker', message: this.t('cmd.err.noWorker') }
      : { ok: false, code: 'send_failed', message: this.t('cmd.err.sendFailed') };
  }

  async setWorkingDir(path: string): Promise<{ ok: true; appliesTo: 'restarted' | 'next_session' } | { ok: false; code: string; message: string }> {
    const s = this.currentSession();
    if (!s) {
      // No session yet: the next one starts there (the picker is skipped).
      if (await this.answerPicker(path)) return { ok: true, appliesTo: 'next_session' };
      this.create(path);
      return { ok: true, appliesTo: 'next_session' };
    }
    // A CLI cannot change its folder: end this one; the next message starts a new session there.
    await this.rt.sessions.close(s.id);
    this.create(path);
    return { ok: true, appliesTo: 'restarted' };
  }

  /** A new session at this anchor, at the place `path` names (readPlace). */
  private create(path: string): void {
    const place = readPlace(path, this.rt.hosts.map((h) => h.name));
    this.rt.sessions.create(this.anchor, this.invoker.userId, place.dir, undefined, place.host);
  }

  isDirectory(path: string): Promise<boolean> {
    return isDirectory(path);
  }

  listProjects(): Promise<Project[]> {
    return listProjects(this.bot.workingDir, this.bot.projects).then((local) => [...local, ...hostPickerEntries(this.rt.hosts)].slice(0, PROJECT_SCAN.maxProjects));
  }

  async setDisplay(sessionId: string, mode: DisplayMode): Promise<CommandResult> {
    const s = this.rt.sessions.get(sessionId);
    if (!s) return { ok: false, code: 'unknown_session', message: this.t('cmd.err.noSuchSession') };
    return this.result(await this.rt.sessions.setDisplay(s, mode));
  }

  async postScreen(sessionId: string): Promise<CommandResult> {
    const s = this.rt.sessions.get(sessionId);
    if (!s) return { ok: false, code: 'unknown_session', message: this.t('cmd.err.noSuchSession') };
    return this.result(this.rt.sessions.worker(s).captureNow());
  }

  async answerSelection(sessionId: string, promptId: string, optionIndex: number, typed?: string): Promise<boolean> {
    const s = this.rt.sessions.get(sessionId);
    if (!s) return false;
    // A typed answer goes as it was typed (the worker types it literally after picking the option that takes it).
    return this.rt.sessions.answerSelection(s, promptId, optionIndex, this.requester(), typed?.slice(0, IPC_LIMITS.typedAnswer));
  }

  async hurryMessage(sessionId: string, turnId: string, how: HurryHow): Promise<TapOutcome> {
    const s = this.rt.sessions.get(sessionId);
    return s ? this.rt.sessions.hurry(s, turnId, how, this.requester()) : { kind: 'gone' };
  }

  async answerPicker(path: string): Promise<boolean> {
    return this.rt.answerPicker(this.anchor.sessionKey, path);
  }

  async updateCard(messageId: string, card: CardModel): Promise<void> {
    await this.rt.im.updateCard({ messageId }, card);
  }

  async postChanges(sessionId: string): Promise<'posted' | 'none' | 'not_git' | 'no_turn'> {
    return this.rt.sessions.postChanges(sessionId);
  }

  async resumeHeld(sessionId: string): Promise<ResumeOutcome> {
    const s = this.rt.sessions.get(sessionId);
    return s ? this.rt.sessions.holds.resumeNow(s) : { kind: 'not_held' };
  }

  async issueWriteLink(sessionId: string, userId: string): Promise<{ ok: true; expiresInMinutes: number } | { ok: false; code: string; message: string }> {
    const link = this.rt.web?.writeLink(sessionId, userId);
    if (!link) return { ok: false, code: 'web_off', message: this.t('cmd.err.webOff') };
    const res = await this.rt.im.dmUser(userId, this.t('cmd.term.dm', { minutes: link.expiresInMinutes, url: link.url }));
    if (!res.ok) return { ok: false, code: res.code, message: this.t('cmd.err.dmFailed') };
    return { ok: true, expiresInMinutes: link.expiresInMinutes };
  }

  async revokeWriteGrants(sessionId: string): Promise<number> {
    return this.rt.web?.revokeSession(sessionId) ?? 0;
  }

  async rotateViewToken(sessionId: string): Promise<{ connections: number } | null> {
    return this.rt.web?.rotateViewToken(sessionId) ?? null;
  }

  get tmuxSocket(): string | null {
    return this.rt.tmuxSocket;
  }

  adoptScan(): Promise<BotAdoptScan> {
    return scanForBot(this.rt);
  }

  adopt(paneId: string, cliPid: number, host?: string): Promise<AdoptOutcome> {
    return adoptPane(this.rt, this.anchor, this.invoker.userId, paneId, cliPid, host);
  }

  offerAdopt(): void {
    rememberOffer(this.anchor);
  }

  grantTalk(target: GrantTarget): Promise<boolean> {
    return this.rt.state.grantTalk(target);
  }

  revokeTalk(target: GrantTarget): Promise<boolean> {
    return this.rt.state.revokeTalk(target);
  }

  async readUsage(sinceMs: number): Promise<{ ok: true; entries: UsageEntry[] } | { ok: false; reason: string }> {
    try {
      return { ok: true, entries: (await readUsageLedger(usageLedgerDir(this.rt.home), sinceMs)).entries };
    } catch (e) {
      this.rt.log.warn({ err: (e as NodeJS.ErrnoException).code ?? String(e) }, 'usage ledger unreadable');
      return { ok: false, reason: (e as NodeJS.ErrnoException).code ?? 'error' };
    }
  }
}
