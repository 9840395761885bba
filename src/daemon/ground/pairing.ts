// Pairing and grants: a closed bot prints a one-time code; the first user who sends it becomes the owner (DESIGN §8).
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import type { Logger } from '../../platform/log.js';
import { isClosed, type Grants, type PermissionBot } from './permissions.js';
import { DurableFile, STORE_FORMAT_VERSION, type FlushResult, type ParseVerdict, type StoreLoadFailure } from '../../platform/durable-file.js';

export const PAIRING = {
  /** No 0/O/1/I: people copy the code from a terminal into a phone. 8 symbols of 32 = 40 bits. */
  alphabet: 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789',
  groupLength: 4,
  groups: 2,
  prefix: 'LMX',
  /**
   * Wrong guesses one sender may make before pairing is closed to that sender (until the daemon restarts). The code
   * itself never changes on guesses: replacing it would let any stranger take the printed code away from the owner
   * (issue 13 finding 9). 5 tries at 2^-40 each leave guessing hopeless, even across many accounts.
   */
  maxFailedAttemptsPerSender: 5,
  /** Senders remembered; beyond this the oldest is forgotten (a flood of accounts cannot grow memory without bound). */
  maxTrackedSenders: 10_000,
} as const;

export function generatePairingCode(pick: (n: number) => number = randomInt): string {
  const group = () => Array.from({ length: PAIRING.groupLength }, () => PAIRING.alphabet[pick(PAIRING.alphabet.length)]).join('');
  return [PAIRING.prefix, ...Array.from({ length: PAIRING.groups }, group)].join('-');
}

const CODE_SHAPE = new RegExp(`^${PAIRING.prefix}-?[A-Z0-9]{${PAIRING.groupLength}}(-?[A-Z0-9]{${PAIRING.groupLength}}){${PAIRING.groups - 1}}$`);

function normalizeCode(text: string): string {
  return text.trim().toUpperCase().replace(/\s+/g, '');
}

/** Whether a message is shaped like a pairing code (so that ordinary chatter does not count as a failed attempt). */
export function looksLikePairingCode(text: string): boolean {
  return CODE_SHAPE.test(normalizeCode(text));
}

/** Constant-time comparison (hashes make the lengths equal); dashes and case do not matter. */
export function pairingCodeMatches(text: string, code: string): boolean {
  const canon = (s: string) => createHash('sha256').update(normalizeCode(s).replace(/-/g, '')).digest();
  return timingSafeEqual(canon(text), canon(code));
}

const BotStateFileSchema = z.object({
  format: z.literal('larkmux-bot-state'),
  version: z.number().int().min(1),
  ownerId: z.string().min(1).max(256).optional(),
  pairedAt: z.number().int().nonnegative().optional(),
  talkUsers: z.array(z.string().min(1).max(256)).default([]),
  talkChats: z.array(z.string().min(1).max(256)).default([]),
});
type BotStateFile = z.infer<typeof BotStateFileSchema>;

function parseBotState(raw: unknown, path: string): ParseVerdict<BotStateFile> {
  const res = BotStateFileSchema.safeParse(raw);
  if (!res.success) return { ok: false, code: 'corrupt', message: `${path} is not a bot-state file` };
  if (res.data.version > STORE_FORMAT_VERSION) return { ok: false, code: 'future_version', message: `${path} was written by a newer larkmux` };
  return { ok: true, value: res.data };
}

export function botStatePath(home: string, appId: string): string {
  return join(home, `bot-state-${appId.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`);
}

export type PairResult =
  | { ok: true; ownerId: string }
  | { ok: false; code: 'not_pairing' }
  | { ok: false; code: 'mismatch'; attemptsLeft: number }
  /** This sender guessed wrong too often: nothing they send pairs any more (others still can). */
  | { ok: false; code: 'locked' };

export type GrantTarget = { user: string } | { chat: string };

export interface BotStateOptions {
  home: string;
  appId: string;
  now?: () => number;
  log?: Logger;
}

/** One bot's owner and talk grants (bot-state-<appId>.json); the pairing code itself lives only in memory. */
export class BotState {
  readonly path: string;
  private state: BotStateFile = { format: 'larkmux-bot-state', version: STORE_FORMAT_VERSION, talkUsers: [], talkChats: [] };
  private code: string | null = null;
  /** Wrong guesses per sender (open id). */
  private readonly failedBySender = new Map<string, number>();
  private readonly file: DurableFile;
  /** The file was damaged and could not be moved aside: nobody may pair (that would hand the bot to a stranger). */
  private blocked = false;
  private readonly now: () => number;

  constructor(private readonly opts: BotStateOptions) {
    this.path = botStatePath(opts.home, opts.appId);
    this.now = opts.now ?? Date.now;
    this.file = new DurableFile(this.path, { what: 'bot state', now: this.now, ...(opts.log ? { log: opts.log } : {}) });
  }

  async load(): Promise<{ ok: true } | StoreLoadFailure> {
    const res = await this.file.load((raw) => parseBotState(raw, this.path));
    // An owner file we could not move must not be replaced: that would silently hand the bot to the next person who pairs.
    this.blocked = !res.ok && res.movedTo === null;
    if (!res.ok) return res;
    if (res.value) this.state = res.value;
    return { ok: true };
  }

  get ownerId(): string | undefined {
    return this.state.ownerId;
  }

  grants(): Grants {
    return { ...(this.state.ownerId ? { ownerId: this.state.ownerId } : {}), talkUsers: this.state.talkUsers, talkChats: this.state.talkChats, peerBots: [] };
  }

  /** Whether the bot waits for pairing (closed: no allowlist and no owner, and the state file is usable). */
  needsPairing(bot: PermissionBot): boolean {
    return !this.blocked && isClosed(bot, this.grants());
  }

  /** The code for the daemon to print, generated once per process; null when the bot does not need pairing. */
  pairingCode(bot: PermissionBot): string | null {
    if (!this.needsPairing(bot)) return null;
    this.code ??= generatePairingCode();
    return this.code;
  }

  /** The first user whose message is exactly the code becomes the owner; the code is then forgotten. */
  async tryPair(userId: string, text: string): Promise<PairResult> {
    if (!this.code || this.state.ownerId) return { ok: false, code: 'not_pairing' };
    const failed = this.failedBySender.get(userId) ?? 0;
    if (failed >= PAIRING.maxFailedAttemptsPerSender) return { ok: false, code: 'locked' };
    if (!pairingCodeMatches(text, this.code)) {
      this.failedBySender.delete(userId);
      this.failedBySender.set(userId, failed + 1);
      if (this.failedBySender.size > PAIRING.maxTrackedSenders) this.failedBySender.delete(this.failedBySender.keys().next().value!);
      const attemptsLeft = PAIRING.maxFailedAttemptsPerSender - failed - 1;
      return attemptsLeft > 0 ? { ok: false, code: 'mismatch', attemptsLeft } : { ok: false, code: 'locked' };
    }
    this.code = null;
    this.state = { ...this.state, ownerId: userId, pairedAt: this.now() };
    const saved = await this.save();
    if (!saved.ok) this.opts.log?.error({ file: this.path }, 'owner paired but not saved; pairing is needed again after a restart');
    return { ok: true, ownerId: userId };
  }

  /** Adds a talk grant; false when it was already there. */
  async grantTalk(target: GrantTarget): Promise<boolean> {
    const [field, id] = 'user' in target ? (['talkUsers', target.user] as const) : (['talkChats', target.chat] as const);
    if (this.state[field].includes(id)) return false;
    this.state = { ...this.state, [field]: [...this.state[field], id] };
    await this.save();
    return true;
  }

  /** Removes a talk grant; false when there was none. */
  async revokeTalk(target: GrantTarget): Promise<boolean> {
    const [field, id] = 'user' in target ? (['talkUsers', target.user] as const) : (['talkChats', target.chat] as const);
    if (!this.state[field].includes(id)) return false;
    this.state = { ...this.state, [field]: this.state[field].filter((x) => x !== id) };
    await this.save();
    return true;
  }

  private save(): Promise<FlushResult> {
    return this.file.write(`${JSON.stringify(this.state, null, 2)}\n`);
  }

  /** Nothing is pending between calls (every change is written at once); forgets the code. */
  async dispose(): Promise<void> {
    this.code = null;
  }
}
