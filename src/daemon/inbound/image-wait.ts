// A message with only a picture waits for the same person's next text in the topic (people send the screenshot first,
// then type the question); the two go as one prompt. After the wait the picture goes alone with a default instruction.
import type { InboundMessage } from '../im/types.js';

/** True for a message whose only content is pictures: no text, no files. */
export function isImageOnly(msg: InboundMessage): boolean {
  const atts = msg.attachments ?? [];
  return msg.text.trim() === '' && atts.length > 0 && atts.every((a) => a.kind === 'image');
}

/** The held pictures' message with the text message folded in: the text's words and id, the pictures first. */
export function mergeHeld(held: InboundMessage, text: InboundMessage): InboundMessage {
  return { ...text, attachments: [...(held.attachments ?? []), ...(text.attachments ?? [])] };
}

interface Held<D> {
  decision: D;
  msg: InboundMessage;
  timer: NodeJS.Timeout;
}

export interface ImageWaitDeps<D> {
  /** How long a lone picture waits (the bot's `attachments.imageWaitSeconds`); 0 sends at once. */
  waitMs(): number;
  /** Tells the person their picture waits for text (a reply to the picture). */
  announce(decision: D, msg: InboundMessage, seconds: number): Promise<void>;
  /** Sends the pictures alone once the wait is over. */
  expire(decision: D, msg: InboundMessage): Promise<void>;
}

/**
 * Holds lone pictures per topic and sender. `take` is given every prompt: it returns what to deliver now (the message
 * itself, or it merged with the pictures waiting for it), or null when it holds a picture.
 */
export class ImageWait<D extends { sessionKey: string }> {
  private readonly held = new Map<string, Held<D>>();

  constructor(private readonly deps: ImageWaitDeps<D>) {}

  private key(decision: D, msg: InboundMessage): string {
    return `${decision.sessionKey}\n${msg.senderId}`;
  }

  async take(decision: D, msg: InboundMessage): Promise<{ decision: D; msg: InboundMessage } | null> {
    const key = this.key(decision, msg);
    const waiting = this.held.get(key);
    if (isImageOnly(msg)) {
      if (waiting) {
        // A second picture before any text joins the first and waits with it (the clock is not restarted).
        waiting.msg = mergeHeld(waiting.msg, { ...waiting.msg, attachments: msg.attachments ?? [] });
        return null;
      }
      const ms = this.deps.waitMs();
      if (ms <= 0) return { decision, msg };
      const timer = setTimeout(() => void this.expireNow(key), ms);
      timer.unref();
      this.held.set(key, { decision, msg, timer });
      await this.deps.announce(decision, msg, Math.round(ms / 1000));
      return null;
    }
    if (!waiting) return { decision, msg };
    clearTimeout(waiting.timer);
    this.held.delete(key);
    return { decision, msg: mergeHeld(waiting.msg, msg) };
  }

  private async expireNow(key: string): Promise<void> {
    const waiting = this.held.get(key);
    if (!waiting) return;
    this.held.delete(key);
    await this.deps.expire(waiting.decision, waiting.msg);
  }

  /** Stops every wait (the bot is stopping); returns how many pictures were still waiting, for the log. */
  dispose(): number {
    for (const h of this.held.values()) clearTimeout(h.timer);
    const n = this.held.size;
    this.held.clear();
    return n;
  }
}
