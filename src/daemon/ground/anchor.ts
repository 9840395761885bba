// Where a message and a session live and where to answer: shapes on the ground floor, so the IM adapters, the command
// modules, the router and the session owner all use them without importing one another.
import type { SessionScope } from '../../shared/session-key.js';

/** Where a message lives: the chat, and the topic root when it is in a thread. */
export interface ChatPlace {
  chatId: string;
  chatType: 'p2p' | 'group';
  /** Root message id of the topic/thread, when the message is in one. */
  rootId?: string;
  threadId?: string;
}

/** Where a session lives and where to answer. */
export interface Anchor {
  anchorId: string;
  scope: SessionScope;
  sessionKey: string;
  place: ChatPlace;
  /** The message to reply to (replies land in its topic). */
  replyTo: string;
}
