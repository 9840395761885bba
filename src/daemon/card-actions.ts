// Card taps: who may press what is the router's decision; the effect runs after Feishu has its answer (3 s limit).
import type { MessageKey } from '../shared/i18n.js';
import { IPC_LIMITS } from '../shared/ipc.js';
import type { BotRuntimeHandle } from './bot-runtime-handle.js';
import { BotCommandContext } from './bot-command-context.js';
import type { CardActionReply, InboundCardAction } from './im/types.js';
import { routeCardAction } from './router.js';
import { offeredAnchor } from './adopt.js';
import { adoptAndReply } from './commands/adopt.js';

/** A tap on a card: checked by the pure router, answered at once with a toast, carried out in the background. */
export async function onCardAction(rt: BotRuntimeHandle, ev: InboundCardAction, duplicate: boolean): Promise<CardActionReply | void> {
  const decision = routeCardAction({
    action: ev, bot: rt.routerBot(), grants: rt.grants(), duplicate, sessionById: (id) => rt.sessions.get(id),
    selectionRequester: (sessionId, promptId) => rt.live.get(sessionId)?.selectionRequester(promptId),
    t: rt.t,
  });
  if (decision.kind === 'ignore') return decision.reason === 'unknown_session' ? { toast: { type: 'warning', content: rt.t('tap.sessionGone') } } : undefined;
  if (decision.kind === 'deny') return { toast: { type: 'error', content: decision.toast } };
  if (ev.typedText !== undefined && !ev.typedText.trim()) return { toast: { type: 'warning', content: rt.t('attention.emptyAnswer') } };
  // Feishu waits at most 3 s for the answer: act in the background and answer at once.
  void act(rt, decision.value, decision.by.userId, ev).catch((err) => rt.log.error({ err }, 'card action failed'));
  return { toast: { type: 'info', content: rt.t(ACTION_TOAST[decision.value.action]) } };
}

async function act(rt: BotRuntimeHandle, v: InboundCardAction['value'], userId: string, ev: InboundCardAction): Promise<void> {
  const session = 'sessionId' in v ? rt.sessions.get(v.sessionId) : undefined;
  switch (v.action) {
    case 'key':
      if (session) rt.workerOf(session).key(v.key, { userId });
      return;
    case 'display':
      // The same effect as /display (cards and worker), so the button and the command cannot drift apart.
      if (session) await new BotCommandContext(rt, rt.anchorOf(session, ev.messageId), { userId }).setDisplay(session.id, v.mode);
      return;
    case 'select': {
      if (!session) return;
      const live = rt.ensureLive(session);
      if (!live.selection(v.promptId)) return;
      // A typed answer goes as it was typed (the worker types it literally after picking the option that takes it).
      const text = ev.typedText?.slice(0, IPC_LIMITS.typedAnswer);
      rt.workerOf(session).choose(v.promptId, v.optionIndex, { userId }, text);
      await live.answered(v.promptId, userId, v.optionIndex, text);
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
      if (session) rt.workerOf(session).captureNow();
      return;
    case 'project': {
      const wait = rt.pickerWaits.get(v.anchorKey);
      if (!wait) return;
      rt.pickerWaits.delete(v.anchorKey);
      await rt.opts.im.updateCard({ messageId: ev.messageId }, { kind: 'picker', anchorKey: v.anchorKey, title: rt.t('session.projectChosen'), projects: [], chosen: v.path });
      await rt.deliver(wait.decision, wait.msg, v.path);
      return;
    }
    case 'adopt': {
      const anchor = offeredAnchor(v.anchorKey);
      if (!anchor) {
        await rt.opts.im.sendText({ chatId: ev.chatId, chatType: 'group' }, rt.t('adopt.expired'), ev.messageId);
        return;
      }
      const done = await adoptAndReply(new BotCommandContext(rt, anchor, { userId }), v.paneId, v.pid);
      if (done) await rt.opts.im.updateCard({ messageId: ev.messageId }, { kind: 'adopt', anchorKey: v.anchorKey, title: rt.t('adopt.title'), candidates: [], chosen: done });
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
  adopt: 'tap.adopt',
};
