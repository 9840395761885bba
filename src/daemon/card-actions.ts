// Card taps: who may press what is the router's decision; the effect runs after Feishu has its answer (3 s limit).
import type { MessageKey } from '../shared/i18n.js';
import type { BotRuntimeHandle } from './bot-runtime-handle.js';
import { BotCommandContext } from './bot-command-context.js';
import type { CardActionReply, InboundCardAction } from './im/types.js';
import { routeCardAction } from './router.js';

/** A tap on a card: checked by the pure router, answered at once with a toast, carried out in the background. */
export async function onCardAction(rt: BotRuntimeHandle, ev: InboundCardAction, duplicate: boolean): Promise<CardActionReply | void> {
  const decision = routeCardAction({
    action: ev, bot: rt.routerBot(), grants: rt.grants(), duplicate, sessionById: (id) => rt.sessions.get(id),
    selectionRequester: (sessionId, promptId) => rt.live.get(sessionId)?.selectionRequester(promptId),
    t: rt.t,
  });
  if (decision.kind === 'ignore') return decision.reason === 'unknown_session' ? { toast: { type: 'warning', content: rt.t('tap.sessionGone') } } : undefined;
  if (decision.kind === 'deny') return { toast: { type: 'error', content: decision.toast } };
  // Feishu waits at most 3 s for the answer: act in the background and answer at once.
  void act(rt, decision.value, decision.by.userId, ev).catch((err) => rt.log.error({ err }, 'card action failed'));
  return { toast: { type: 'info', content: rt.t(ACTION_TOAST[decision.value.action]) } };
}

async function act(rt: BotRuntimeHandle, v: InboundCardAction['value'], userId: string, ev: InboundCardAction): Promise<void> {
  const session = 'sessionId' in v ? rt.sessions.get(v.sessionId) : undefined;
  switch (v.action) {
    case 'key':
      if (session && rt.ensureWorker(session)) rt.opts.pool.send(session.id, { type: 'key', key: v.key, by: { userId } });
      return;
    case 'display':
      if (!session) return;
      await rt.ensureLive(session).cards.setDisplay(v.mode);
      rt.opts.pool.send(session.id, { type: 'set_display', mode: v.mode });
      return;
    case 'select': {
      if (!session) return;
      const live = rt.ensureLive(session);
      if (!live.selection(v.promptId)) return;
      rt.ensureWorker(session);
      rt.opts.pool.send(session.id, { type: 'selection_choice', promptId: v.promptId, optionIndex: v.optionIndex, by: { userId } });
      await live.answered(v.promptId, userId, v.optionIndex);
      return;
    }
    case 'write_link':
      if (!session) return;
      await new BotCommandContext(rt, rt.anchorOf(session, ev.messageId), { userId }).issueWriteLink(session.id, userId);
      return;
    case 'close':
      if (session) await rt.closeSession(session.id);
      return;
    case 'screen':
      if (session && rt.ensureWorker(session)) rt.opts.pool.send(session.id, { type: 'capture_now' });
      return;
    case 'project': {
      const wait = rt.pickerWaits.get(v.anchorKey);
      if (!wait) return;
      rt.pickerWaits.delete(v.anchorKey);
      await rt.opts.im.updateCard({ messageId: ev.messageId }, { kind: 'picker', anchorKey: v.anchorKey, title: rt.t('session.projectChosen'), projects: [], chosen: v.path });
      await rt.deliver(wait.decision, wait.msg, v.path);
      return;
    }
    default: {
      const never: never = v;
      return never;
    }
  }
}

const ACTION_TOAST: Record<InboundCardAction['value']['action'], MessageKey> = {
  key: 'tap.key',
  display: 'tap.display',
  select: 'tap.select',
  write_link: 'tap.writeLink',
  close: 'tap.close',
  screen: 'tap.screen',
  project: 'tap.project',
};
