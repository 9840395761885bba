// A due schedule becomes a turn like a person's: a line in the topic says it was scheduled and by whom, then the
// prompt goes to the session owner in the topic's order (it waits behind a running turn, never interrupts), run as its
// creator — who must still be allowed to operate the bot, else the schedule stops with a notice.
import { literalChatText } from '../../shared/chat-text.js';
import type { Translate } from '../../shared/i18n.js';
import { LOCAL_HOST } from '../../shared/host-config.js';
import { formatWhen, type Schedule } from '../../shared/schedule.js';
import type { Logger } from '../../platform/log.js';
import type { Anchor } from '../ground/anchor.js';
import { hasLevel, type Grants, type PermissionBot } from '../ground/permissions.js';
import { isOpenSession, sessionPlace } from '../ground/session-core.js';
import type { ImAdapter } from '../im/types.js';
import type { SessionService } from '../sessions/session-service.js';
import type { FireReason, Scheduler } from './scheduler.js';

/** What a scheduled turn uses of its bot (BotRuntime gives it). */
export interface ScheduledTurnDeps {
  sessions: SessionService;
  im: ImAdapter;
  t: Translate;
  log: Logger;
  permissionBot(): PermissionBot;
  grants(): Grants;
  scheduler(): Scheduler;
}

/** Where the schedule's topic is, and what to reply to (the topic's root in a thread). */
export function scheduleAnchor(s: Schedule, replyTo: string): Anchor {
  return { anchorId: s.anchorId, scope: s.scope, sessionKey: s.sessionKey, place: sessionPlace(s), replyTo };
}

function rootReply(s: Schedule): string | undefined {
  return s.scope === 'thread' ? s.anchorId : undefined;
}

export async function fireScheduled(deps: ScheduledTurnDeps, s: Schedule, due: number, reason: FireReason): Promise<void> {
  const { im, t } = deps;
  const place = sessionPlace(s);
  const who = s.creatorName ?? s.creatorId;
  if (!hasLevel('operate', deps.permissionBot(), { chatId: s.chatId }, { userId: s.creatorId }, deps.grants())) {
    if (deps.scheduler().get(s.id)) deps.scheduler().setPaused(s.id, true);
    await im.sendText(place, t('schedule.creatorLost', { id: s.id, who }), rootReply(s));
    return;
  }
  // Due again while its earlier firing waits for a usage limit: that one runs once, and its line was posted already.
  const open = deps.sessions.getByKey(s.sessionKey);
  if (isOpenSession(open) && deps.sessions.holds.scheduleWaiting(open.id, s.id)) {
    deps.log.info({ schedule: s.id }, 'a schedule due again during a hold: its earlier firing still waits, nothing posted');
    return;
  }
  const lines = [t('schedule.fired', { who, id: s.id, prompt: s.prompt })];
  if (reason === 'caughtUp') lines.push(t('schedule.caughtUp', { due: formatWhen(due, s.timezone) }));
  const posted = await im.sendText(place, lines.join('\n'), rootReply(s));
  // The turn's card answers the line above; without it (Feishu refused), the topic's root or the chat.
  const messageId = posted.ok ? posted.value.messageId : s.anchorId;
  if (!posted.ok) deps.log.warn({ schedule: s.id, code: posted.code }, 'scheduled notice not posted');
  const literal = literalChatText(s.prompt);
  await deps.sessions.inSessionOrder(s.sessionKey, async () => {
    let session = deps.sessions.getByKey(s.sessionKey);
    // A session closed since: a new one in the same topic and folder, started by the schedule's creator.
    if (!isOpenSession(session)) session = deps.sessions.create(scheduleAnchor(s, messageId), s.creatorId, s.cwd, undefined, s.host ?? LOCAL_HOST);
    await deps.sessions.submit(session, {
      messageId,
      requester: { userId: s.creatorId, ...(s.creatorName ? { name: s.creatorName } : {}) },
      kind: 'prompt',
      text: literal.text,
      // Held by a usage limit: one waiting firing per schedule, however often it comes due (usage-hold.ts).
      scheduleId: s.id,
      // The turn's card says it too: scheduled, and by whom.
      notices: [t('schedule.onCard', { who, id: s.id }), ...(literal.replaced ? [t('security.controlChars', { count: literal.replaced })] : [])],
    });
  });
}

export async function skippedScheduled(deps: Pick<ScheduledTurnDeps, 'im' | 't'>, s: Schedule, due: number): Promise<void> {
  await deps.im.sendText(sessionPlace(s), deps.t('schedule.skipped', { id: s.id, due: formatWhen(due, s.timezone) }), rootReply(s));
}
