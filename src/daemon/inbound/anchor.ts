// Where a session lives and where to answer: a type of its own so the command modules and the router can both use it
// without the command table importing the router that imports it.
import type { SessionScope } from '../../shared/session-key.js';
import type { ChatPlace } from '../im/types.js';

/** Where a session lives and where to answer. */
export interface Anchor {
  anchorId: string;
  scope: SessionScope;
  sessionKey: string;
  place: ChatPlace;
  /** The message to reply to (replies land in its topic). */
  replyTo: string;
}
