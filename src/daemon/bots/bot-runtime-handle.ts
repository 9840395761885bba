// What the command context and the card actions may use of a bot's runtime. They take this interface, not the
// BotRuntime class, so bot-runtime.ts imports them without them importing it back (no cycle), and the list below is
// the whole surface they reach: sessions go through their one owner, SessionService.
import type { HostPanes } from '../../shared/host-adopt-protocol.js';
import type { BotConfig } from '../../shared/config.js';
import type { HostConfig } from '../../shared/host-config.js';
import type { Translate } from '../../shared/i18n.js';
import type { Logger } from '../../platform/log.js';
import type { ImAdapter, InboundMessage } from '../im/types.js';
import type { BotState } from '../ground/pairing.js';
import type { Grants } from '../ground/permissions.js';
import type { RouteDecision, RouterBot } from '../inbound/router.js';
import type { Anchor } from '../ground/anchor.js';
import type { WebAccess } from '../web/web-access.js';
import type { SessionService } from '../sessions/session-service.js';
import type { Scheduler } from '../schedules/scheduler.js';

/** A prompt waiting for the project picker's answer. */
export interface PickerWait {
  decision: Extract<RouteDecision, { kind: 'prompt' | 'passthrough' }>;
  msg: InboundMessage;
}

/** Implemented by BotRuntime. */
export interface BotRuntimeHandle {
  readonly bot: BotConfig;
  readonly im: ImAdapter;
  readonly web?: WebAccess;
  readonly tmuxSocket: string | null;
  /** The configured hosts (config `hosts`): where /cd and the picker may place a session. */
  readonly hosts: readonly HostConfig[];
  /** /adopt on the configured hosts (none configured: undefined). */
  readonly hostPanes?: HostPanes | undefined;
  /** The one owner of the bot's sessions (session-service.ts). */
  readonly sessions: SessionService;
  readonly state: BotState;
  /** The bot's schedules (schedules/scheduler.ts). */
  readonly scheduler: Scheduler;
  readonly log: Logger;
  readonly t: Translate;
  /** LARKMUX_HOME (the usage ledger is read from it). */
  readonly home: string;
  routerBot(): RouterBot;
  grants(): Grants;
  /** The folder picker of a session key was answered: its waiting prompt goes on there. False: nothing waits (answered already, or from before a restart). */
  answerPicker(sessionKey: string, path: string): Promise<boolean>;
  /** Where a waiting folder picker of a session key was posted (undefined: nothing waits). */
  pickerAnchor(sessionKey: string): Anchor | undefined;
}
