// Card taps: who may press what is the router's decision (each button takes its command's level); what a tap does is
// its command's tap handler in the command table. This shell finds where the tap acts and answers Feishu in time.
import type { MessageKey } from '../../shared/i18n.js';
import type { BotRuntimeHandle } from './bot-runtime-handle.js';
import { BotCommandContext } from './bot-command-context.js';
import { COMMAND_TABLE } from '../commands/index.js';
import type { TapName } from '../commands/types.js';
import type { CardActionReply, InboundCardAction } from '../im/types.js';
import type { Anchor } from '../ground/anchor.js';
import { sessionAnchor } from '../ground/session-core.js';
import { routeCardAction } from '../inbound/router.js';
import { offeredAnchor } from '../sessions/adopt.js';
import { scheduleAnchor } from '../schedules/scheduled-turn.js';

/** A tap on a card: checked by the pure router, answered at once with a toast, carried out in the background. */
export async function onCardAction(rt: BotRuntimeHandle, ev: InboundCardAction, duplicate: boolean): Promise<CardActionReply | void> {
  const decision = routeCardAction({
    action: ev, bot: rt.routerBot(), grants: rt.grants(), duplicate, sessionById: (id) => rt.sessions.get(id),
    selectionRequester: (sessionId, promptId) => rt.sessions.selectionRequester(sessionId, promptId),
    t: rt.t,
  });
  if (decision.kind === 'ignore') return decision.reason === 'unknown_session' ? { toast: { type: 'warning', content: rt.t('tap.sessionGone') } } : undefined;
  if (decision.kind === 'deny') return { toast: { type: 'error', content: decision.toast } };
  if (ev.typedText !== undefined && !ev.typedText.trim()) return { toast: { type: 'warning', content: rt.t('attention.emptyAnswer') } };
  // Feishu waits at most 3 s for the answer: act in the background and answer at once.
  void act(rt, decision.value, decision.by.userId, ev).catch((err) => rt.log.error({ err }, 'card action failed'));
  return { toast: { type: 'info', content: rt.t(TAP_TOAST[decision.value.action]) } };
}

async function act(rt: BotRuntimeHandle, v: InboundCardAction['value'], userId: string, ev: InboundCardAction): Promise<void> {
  const entry = COMMAND_TABLE.byTap.get(v.action);
  // Every action has an entry (a unit test walks them all): a missing one is a bug in the table, not a person's error.
  if (!entry) throw new Error(`card action "${v.action}" has no command`);
  const anchor = tapAnchor(rt, v, ev.messageId);
  if (!anchor) {
    // The list or picker the tap came from is no longer waiting (answered already, or from before a restart).
    if (v.action === 'schedule') await rt.im.sendText({ chatId: ev.chatId, chatType: 'group' }, rt.t('schedule.unknown', { id: v.scheduleId }), ev.messageId);
    if (v.action === 'adopt') await rt.im.sendText({ chatId: ev.chatId, chatType: 'group' }, rt.t('adopt.expired'), ev.messageId);
    return;
  }
  const tap = { cardMessageId: ev.messageId, ...(ev.typedText !== undefined ? { typedText: ev.typedText } : {}) };
  await (entry.run as (ctx: BotCommandContext, value: typeof v, t: typeof tap) => Promise<unknown>)(new BotCommandContext(rt, anchor, { userId }), v, tap);
}

/** Where a tap acts: its session's topic; a picker's or an /adopt list's waiting place (gone once answered). */
function tapAnchor(rt: BotRuntimeHandle, v: InboundCardAction['value'], cardMessageId: string): Anchor | undefined {
  if ('sessionId' in v) {
    const s = rt.sessions.get(v.sessionId);
    return s ? sessionAnchor(s, cardMessageId) : undefined;
  }
  if (v.action === 'adopt') return offeredAnchor(v.anchorKey) ?? undefined;
  if (v.action === 'schedule') {
    // A schedule deleted meanwhile: the tap still gets its answer where the card is.
    const s = rt.scheduler.get(v.scheduleId);
    return s ? scheduleAnchor(s, cardMessageId) : undefined;
  }
  return rt.pickerAnchor(v.anchorKey);
}

const TAP_TOAST: Record<TapName, MessageKey> = {
  key: 'tap.key',
  display: 'tap.display',
  select: 'tap.select',
  write_link: 'tap.writeLink',
  close: 'tap.close',
  screen: 'tap.screen',
  project: 'tap.project',
  adopt: 'tap.adopt',
  schedule: 'tap.schedule',
  hurry: 'tap.hurry',
};
