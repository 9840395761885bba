// What the command context, the card actions and the capacity keeper may use of a bot's runtime. They take this
// interface, not the BotRuntime class, so bot-runtime.ts imports them without them importing it back (no cycle), and
// the list below is the whole surface they reach (issue 11: a SessionService will narrow it further).
import type { BotConfig } from '../shared/config.js';
import type { Translate } from '../shared/i18n.js';
import type { Logger } from '../shared/log.js';
import type { Anchor } from './anchor.js';
import type { ImAdapter, InboundMessage } from './im/types.js';
import type { LiveSession } from './live-session.js';
import type { BotState } from './pairing.js';
import type { Grants } from './permissions.js';
import type { RouteDecision, RouterBot } from './router.js';
import type { SessionCore } from './session-core.js';
import type { SessionStore } from './store.js';
import type { WebAccess } from './web-access.js';
import type { SessionWorker } from './session-worker.js';
import type { WorkerPool } from './worker-pool.js';

/** A prompt waiting for the project picker's answer. */
export interface PickerWait {
  decision: Extract<RouteDecision, { kind: 'prompt' | 'passthrough' }>;
  msg: InboundMessage;
}

/** Implemented by BotRuntime. */
export interface BotRuntimeHandle {
  readonly bot: BotConfig;
  readonly opts: { readonly pool: WorkerPool; readonly im: ImAdapter; readonly web?: WebAccess; readonly tmuxSocket: string | null };
  readonly sessions: SessionStore;
  readonly state: BotState;
  readonly live: ReadonlyMap<string, LiveSession>;
  readonly pickerWaits: Map<string, PickerWait>;
  readonly log: Logger;
  readonly t: Translate;
  routerBot(): RouterBot;
  grants(): Grants;
  ensureWorker(session: SessionCore, opts?: { capacityCheck?: boolean }): boolean;
  ensureLive(session: SessionCore): LiveSession;
  /** Typed messages to the session's worker, with the one wake rule (session-worker.ts). */
  workerOf(session: SessionCore): SessionWorker;
  createSession(anchor: Anchor, ownerId: string, cwd?: string): SessionCore;
  closeSession(sessionId: string): Promise<boolean>;
  deliver(decision: PickerWait['decision'], msg: InboundMessage, chosenCwd?: string): Promise<void>;
  anchorOf(session: SessionCore, replyTo: string): Anchor;
}
