// The command contract: what a command declares, and the services (CommandContext) it may use — fakeable in tests.
import type { Locale } from '../../shared/i18n.js';
import { z } from 'zod';
import type { CardActionValue, CardModel } from '../../shared/card-model.js';
import type { CliSpec } from '../../shared/config.js';
import type { MessageKey, Translate } from '../../shared/i18n.js';
import type { DisplayMode, HurryHow } from '../../shared/ipc.js';
import type { TapOutcome } from '../sessions/busy-message.js';
import type { KeyName } from '../../shared/keys.js';
import type { Grants, PermissionLevel } from '../ground/permissions.js';
import type { Anchor } from '../ground/anchor.js';
import type { SessionCore } from '../ground/session-core.js';
import type { Project } from './projects.js';
import type { Place, PlaceHost } from '../../shared/session-place.js';
import type { GrantTarget } from '../ground/pairing.js';
import type { AdoptOutcome, BotAdoptScan } from '../sessions/adopt.js';
import type { UsageEntry } from '../../shared/usage-ledger.js';
import type { ScheduleBook } from '../schedules/scheduler.js';
import type { ResumeOutcome } from '../sessions/session-holds.js';

export type CommandResult = { ok: true } | { ok: false; code: string; message: string };

/** The bot as commands see it; paths are already absolute (`~` expanded). */
export interface CommandBot {
  name: string;
  appId: string;
  cli: CliSpec;
  workingDir: string;
  /** The host a bare folder after /cd goes to (config `host`; `local` = this machine). */
  host: string;
  /** The configured hosts and their roots (`local` is never listed). */
  hosts: readonly PlaceHost[];
  /** Where a new session starts when nobody placed it: the default host and the bot's folder there. */
  defaultPlace: Place;
  projects: readonly string[];
  allowedUsers: readonly string[];
  allowedChats: readonly string[];
  /** The bot's language (botLocale); absent in tests that do not care → English. */
  locale?: Locale;
}

/** Who a talk grant names (ground/pairing.ts keeps the grants). */
export type { GrantTarget };

/** What /status shows about a session's process side (the daemon's worker pool knows it). */
export interface SessionProcessInfo {
  workerLive: boolean;
  /** Link to the read-only web terminal, when the web server is configured. */
  viewUrl?: string;
}

export interface CommandContext {
  readonly bot: CommandBot;
  readonly invoker: { userId: string; name?: string };
  /** Where the command was sent: the session key and chat place it addresses. */
  readonly anchor: Anchor;
  readonly grants: Grants;
  readonly now: number;
  /** Speaks the bot's locale (`botLocale(bot)`): every reply text comes from the catalogue through it. */
  readonly t: Translate;

  /** Replies in the conversation (in the topic for thread scope). */
  reply(text: string): Promise<void>;
  sendCard(card: CardModel): Promise<CommandResult>;

  /** The open (not closed) session at this anchor. */
  currentSession(): SessionCore | undefined;
  /** Every session of this bot, any lifecycle. */
  listSessions(): readonly SessionCore[];
  sessionRuntime(sessionId: string): SessionProcessInfo | undefined;
  /** Kills the CLI, ends the worker, revokes write grants and marks the session closed. */
  closeSession(sessionId: string): Promise<CommandResult>;
  /** Presses a key in the session's CLI for the invoker (waking its worker: session-worker.ts has the rule). */
  pressKey(sessionId: string, key: KeyName): Promise<CommandResult>;

  /**
   * Sets the working folder for this anchor: `path` is a place as formatPlace writes it (`gpu1:/srv/app`, or a folder
   * on this machine). With an open session, its CLI is stopped and the next message starts it there (`restarted`);
   * otherwise the next session starts there (`next_session`).
   */
  setWorkingDir(path: string): Promise<{ ok: true; appliesTo: 'restarted' | 'next_session' } | { ok: false; code: string; message: string }>;
  isDirectory(path: string): Promise<boolean>;
  listProjects(): Promise<Project[]>;

  /** Changes how the session's cards show the screen (the IM adapter's RenderState) and what its worker renders. */
  setDisplay(sessionId: string, mode: DisplayMode): Promise<CommandResult>;
  /** Posts the current screen once, as an image (or text when images fail). */
  postScreen(sessionId: string): Promise<CommandResult>;
  /** Answers a selection prompt the CLI shows (false: the prompt is no longer open); `text` is typed literally. */
  answerSelection(sessionId: string, promptId: string, optionIndex: number, text?: string): Promise<boolean>;
  /** A tap on a waiting message's card (issue 30 item 4): what became of it (sessions/busy-message.ts). */
  hurryMessage(sessionId: string, turnId: string, how: HurryHow): Promise<TapOutcome>;
  /** The project picker at this anchor was answered: its waiting message goes to a new session in `path`. */
  answerPicker(path: string): Promise<boolean>;
  /** Replaces a card the bot sent earlier (a picker or an adopt list, once answered). */
  updateCard(messageId: string, card: CardModel): Promise<void>;
  /** Posts a change card for what changed since the session's last turn began; says why when there is none. */
  postChanges(sessionId: string): Promise<'posted' | 'none' | 'not_git' | 'no_turn'>;
  /** /resume: a session held by a usage limit or the budget tries its waiting prompts now (session-holds.ts). */
  resumeHeld(sessionId: string): Promise<ResumeOutcome>;

  /** DMs the invoker a single-use write link for the web terminal. */
  issueWriteLink(sessionId: string, userId: string): Promise<{ ok: true; expiresInMinutes: number } | { ok: false; code: string; message: string }>;
  /** Revokes every web-terminal write grant of the session; returns how many there were. */
  revokeWriteGrants(sessionId: string): Promise<number>;
  /** A new view token for the session (old card links stop working); how many open views were closed, null = web off. */
  rotateViewToken(sessionId: string): Promise<{ connections: number } | null>;

  /** The tmux server larkmux's sessions live on (`-L` name; null = the user's default server). */
  readonly tmuxSocket: string | null;
  /** /adopt: panes on that server (and on each configured host's) running a CLI this bot knows (by process tree and tty, never by env). */
  adoptScan(): Promise<BotAdoptScan>;
  /** Takes the pane over as this anchor's session (the CLI keeps running: same PID). */
  adopt(paneId: string, cliPid: number, host?: string): Promise<AdoptOutcome>;
  /** Remembers that an /adopt list was posted here, so a tap on it acts in this topic. */
  offerAdopt(): void;

  /** This bot's schedules (/in, /at, /every, /schedules) and the time zone their times are read in. */
  readonly schedules: ScheduleBook;

  /** Talk grants (owner only, checked by the dispatcher). False when nothing changed. */
  grantTalk(target: GrantTarget): Promise<boolean>;
  revokeTalk(target: GrantTarget): Promise<boolean>;
  /** The usage ledger's turns since `sinceMs`, every bot's (/usage picks its own); `reason` when it cannot be read. */
  readUsage(sinceMs: number): Promise<{ ok: true; entries: UsageEntry[] } | { ok: false; reason: string }>;
}

/** A card button's name (its action) and the value it carries. */
export type TapName = CardActionValue['action'];
export type TapValue<A extends TapName> = Extract<CardActionValue, { action: A }>;

/** What a tap brings besides its value: the card it was on, and the text typed into it (a typed answer). */
export interface Tap {
  cardMessageId: string;
  typedText?: string;
}

/**
 * The card buttons a command answers, by action: a tap runs here, at the command's level, with a context anchored
 * where the button acts (the session's topic, the picker's or adopt list's place).
 */
export type TapHandlers = { [A in TapName]?: (ctx: CommandContext, value: TapValue<A>, tap: Tap) => Promise<unknown> };

/** What each commands/<name>.ts exports. `args` parses the raw text after the command name. */
export interface CommandSpec<A> {
  name: string;
  /** Other names it answers to (none when absent). */
  aliases?: readonly string[];
  usage: string;
  /** Catalogue key of the one-line summary /help shows. */
  summary: MessageKey;
  level: PermissionLevel;
  /** Absent: the command takes no argument, and text after its name is ignored (as before, any string passes). */
  args?: z.ZodType<A, string>;
  run(ctx: CommandContext, args: A): Promise<void>;
  taps?: TapHandlers;
}

/** A command with its argument type erased, so the table can hold them all. */
export interface Command {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly usage: string;
  readonly summary: MessageKey;
  readonly level: PermissionLevel;
  readonly args: z.ZodType<unknown, string>;
  run(ctx: CommandContext, args: unknown): Promise<void>;
  readonly taps?: TapHandlers;
}

/**
 * A command reached only by a card button: keys (a typed `/key` would shadow the CLIs' own commands) and answers to a
 * selection prompt. In the same table as the typed ones, with its one level; /help and the classifier never see it.
 */
export interface ButtonCommand {
  readonly name: string;
  readonly level: PermissionLevel;
  readonly taps: TapHandlers;
}

/** Keeps the argument type between `args` and `run` checked, then erases it for the table. */
export function defineCommand<A>(spec: CommandSpec<A>): Command {
  const args: z.ZodType<unknown, string> = spec.args ?? z.string();
  return { ...spec, aliases: spec.aliases ?? [], args, run: (ctx, parsed) => spec.run(ctx, parsed as A) };
}

/** Shared replies, so every command says the same thing in the same situation. */
export const NO_SESSION_REPLY: MessageKey = 'cmd.noSession';

/** A command about the open session here: `run` gets that session; with none, the command replies so and stops. */
export function defineSessionCommand<A>(spec: Omit<CommandSpec<A>, 'run'> & { run(ctx: CommandContext, session: SessionCore, args: A): Promise<void> }): Command {
  return defineCommand<A>({
    ...spec,
    async run(ctx, args) {
      const session = ctx.currentSession();
      if (!session) return ctx.reply(ctx.t(NO_SESSION_REPLY));
      return spec.run(ctx, session, args);
    },
  });
}
