// How a routed turn reaches its session's worker, and what its card is told on the way: the turn and its card are
// registered, the worker launched within the caps (or the turn waits behind prompts held for an unreachable host), the
// text sent, and a notice when it could not be (no worker, the host down, low memory, a full machine). Kept apart
// from SessionService, which owns the sessions; this is the launch-and-notice path one turn takes through it.
import type { BotConfig } from '../../shared/config.js';
import type { Translate } from '../../shared/i18n.js';
import type { Requester } from '../../shared/ipc.js';
import { sessionHost, type SessionCore } from '../ground/session-core.js';
import type { SessionWorker } from '../workers/session-worker.js';
import type { CapacityEvents, WorkerControl } from './session-ports.js';
import type { LiveSession } from './live-session.js';
import { lowMemoryNotice, noWorkerNotice } from './session-placement.js';
import { sendPrompt, turnPrompt, type HostWaits } from './host-waits.js';

/** What one turn's delivery needs of the sessions' owner (SessionService). */
export interface TurnDeliveryPorts {
  bot: BotConfig;
  t: Translate;
  workers: WorkerControl;
  capacity: CapacityEvents;
  hostWaits: HostWaits;
  /** The owner as the capacity keeper knows it (it launches through it). */
  owner: Parameters<CapacityEvents['launch']>[0];
  liveOf(s: SessionCore): LiveSession;
  worker(s: SessionCore): SessionWorker;
  noteRequester(s: SessionCore, requesterId: string): void;
  liveWorkers(): number;
}

export interface DeliveredTurn {
  messageId: string;
  requester: Requester;
  kind: 'prompt' | 'passthrough';
  text: string;
  notices: readonly string[];
}

export async function deliverTurn(p: TurnDeliveryPorts, session: SessionCore, turn: DeliveredTurn): Promise<void> {
  const live = p.liveOf(session);
  p.noteRequester(session, turn.requester.userId);
  // The turn is registered at once; its card goes out in the background so the text reaches the CLI without waiting
  // for Feishu. Card operations keep their order: status updates, and the notices before a quick answer, land on it.
  const card = live.beginTurn({ turnId: turn.messageId, messageId: turn.messageId, requester: turn.requester }, turn.text);
  const notice = turn.notices.join('\n');
  if (notice) void live.cards.setNotice(notice);
  const prompt = turnPrompt(turn);
  // Prompts wait for the session's host: this one waits behind them (never overtakes them, launches nothing alone).
  const waits = p.hostWaits.waiting(session.id) && p.hostWaits.join(session.id, prompt);
  // Within the caps: waits for a stop under way on it, a free slot and, for a new CLI, free memory (capacity-keeper.ts).
  const queued = () => void live.cards.setNotice(p.t('capacity.queued', { busy: p.liveWorkers(), max: p.bot.maxLiveWorkers }));
  if (!waits) await p.capacity.launch(p.owner, session, queued, (why) => void card.then(() => live.cards.setNotice(lowMemoryNotice(why, p.t))));
  await live.changes.begin(); // on the session's host (its git is chosen in liveOf)
  const sent = waits ? 'sent' : sendPrompt(p.worker(session), prompt);
  await card;
  if (notice) await live.cards.setNotice(notice); // again: a wait for a free slot showed its own meanwhile
  if (sent !== 'sent' && !p.hostWaits.join(session.id, prompt)) await live.cards.setNotice(noWorkerNotice((pl) => p.workers.placementProblem?.(pl), sessionHost(session), p.t));
}
