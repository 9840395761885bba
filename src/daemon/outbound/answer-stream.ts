// The turn's final answer, never cut: streamed (typewriter) into answer cards when the IM can, one card per part that
// fits the platform's size, in order; as text messages otherwise; and, past a size, also whole as a .md file.
import type { Translate } from '../../shared/i18n.js';
import type { Logger } from '../../platform/log.js';
import { splitByBytes, utf8Bytes } from '../../shared/utf8-parts.js';
import type { ImAdapter, TextStream } from '../im/types.js';
import type { ChatPlace } from '../ground/anchor.js';

export const ANSWER_DELIVERY = {
  /** Typewriter steps per card: enough to watch it grow, few enough that a full card takes ~2 s at 150 ms a step. */
  stepsPerCard: 12,
  /** A step adds at least this many characters (a short answer shows in one or two steps). */
  minStepChars: 400,
  /** Text messages without streaming: parts of this size (Feishu caps a text body at 150 KB; JSON quoting adds some). */
  textPartBytes: 120 * 1024,
  /** Past this size the whole answer is also posted as a .md file: one piece to read, save or forward on a phone. */
  fileAboveBytes: 48 * 1024,
  /**
   * Streamed cards per answer (~190 KB): each takes ~2 s and holds up the session's later card updates, so a huge
   * answer's rest goes as text messages (and the .md file has it all).
   */
  maxCards: 8,
} as const;

/** The prefixes a card shows one after another (each longer, the last the whole text); never inside a surrogate pair. */
export function typewriterSteps(text: string, steps: number = ANSWER_DELIVERY.stepsPerCard, minStep: number = ANSWER_DELIVERY.minStepChars): string[] {
  const n = Math.max(1, Math.min(steps, Math.ceil(text.length / minStep)));
  const out: string[] = [];
  let prev = 0;
  for (let k = 1; k <= n; k++) {
    let cut = k === n ? text.length : Math.round((text.length * k) / n);
    const before = text.charCodeAt(cut - 1);
    if (cut < text.length && before >= 0xd800 && before <= 0xdbff) cut += 1;
    if (cut > prev) out.push(text.slice(0, cut));
    prev = cut;
  }
  return out.length ? out : [text];
}

export interface AnswerDeliveryDeps {
  im: ImAdapter;
  place: ChatPlace;
  replyTo?: string;
  t: Translate;
  log: Logger;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Posts the answer; resolves when every part is out (or failed and was logged). */
export async function deliverAnswer(text: string, deps: AnswerDeliveryDeps): Promise<void> {
  const streamed = deps.im.openTextStream && deps.im.textStreamLimits ? await streamParts(text, deps) : 0;
  if (streamed < text.length) await sendAsText(text.slice(streamed), deps);
  if (utf8Bytes(text) > ANSWER_DELIVERY.fileAboveBytes) await sendAsFile(text, deps);
}

/** Streams the parts in order; returns how many characters reached a card (the rest goes as text). */
async function streamParts(text: string, deps: AnswerDeliveryDeps): Promise<number> {
  const limits = deps.im.textStreamLimits!;
  const parts = splitByBytes(text, limits.partBytes, limits.cost);
  let done = 0;
  for (let i = 0; i < Math.min(parts.length, ANSWER_DELIVERY.maxCards); i++) {
    const part = parts[i]!;
    const cards = Math.min(parts.length, ANSWER_DELIVERY.maxCards);
    const title = cards > 1 ? deps.t('answer.titlePart', { n: i + 1, total: cards }) : deps.t('answer.title');
    const opened = await deps.im.openTextStream!(deps.place, { title, replyTo: deps.replyTo });
    if (!opened.ok) {
      deps.log.info({ code: opened.code, part: i + 1 }, 'answer card could not be opened; the rest goes as text');
      return done;
    }
    if (!(await streamOne(opened.value, part, limits.minIntervalMs, deps))) {
      // What the card shows is not certain: the part goes again as text so nothing is lost.
      return done;
    }
    done += part.length;
  }
  return done;
}

async function streamOne(stream: TextStream, part: string, minIntervalMs: number, deps: AnswerDeliveryDeps): Promise<boolean> {
  const sleep = deps.sleep ?? realSleep;
  const now = deps.now ?? Date.now;
  const steps = typewriterSteps(part);
  let last = 0;
  for (const prefix of steps.slice(0, -1)) {
    const wait = last + minIntervalMs - now();
    if (wait > 0) await sleep(wait);
    last = now();
    const r = await stream.update(prefix);
    if (!r.ok) {
      deps.log.warn({ code: r.code, detail: r.message }, 'answer card update failed; finishing the card at once');
      break;
    }
  }
  const wait = last + minIntervalMs - now();
  if (wait > 0) await sleep(wait);
  const closed = await stream.close(part);
  if (!closed.ok) deps.log.warn({ code: closed.code, detail: closed.message }, 'answer card could not be finished');
  return closed.ok;
}

async function sendAsText(text: string, deps: AnswerDeliveryDeps): Promise<void> {
  for (const part of splitByBytes(text, ANSWER_DELIVERY.textPartBytes)) {
    const r = await deps.im.sendText(deps.place, part, deps.replyTo);
    if (!r.ok) deps.log.warn({ code: r.code }, 'final answer could not be sent');
  }
}

async function sendAsFile(text: string, deps: AnswerDeliveryDeps): Promise<void> {
  if (!deps.im.uploadFile || !deps.im.sendMedia) return;
  const up = await deps.im.uploadFile(Buffer.from(text, 'utf8'), 'answer.md');
  const sent = up.ok ? await deps.im.sendMedia(deps.place, { kind: 'file', fileRef: up.value.fileRef }, deps.replyTo) : up;
  if (!sent.ok) deps.log.warn({ code: sent.code }, 'the answer could not be posted as a file');
}
