// Reading Feishu card JSON the way a person looks at it: header colour, image, text, buttons.
import { buttonLabels, type FakeFeishu, type FakeMessage } from './fake-feishu/index.js';

type Json = Record<string, any>;

export function headerColour(card: unknown): string | undefined {
  return (card as Json)?.header?.template;
}

export function elementsOf(card: unknown): Json[] {
  const out: Json[] = [];
  const walk = (n: unknown) => {
    if (!n || typeof n !== 'object') return;
    if (Array.isArray(n)) return n.forEach(walk);
    const o = n as Json;
    if (typeof o.tag === 'string') out.push(o);
    for (const v of Object.values(o)) if (v && typeof v === 'object') walk(v);
  };
  walk((card as Json)?.body?.elements);
  return out;
}

export function imageKey(card: unknown): string | undefined {
  return elementsOf(card).find((e) => e.tag === 'img')?.img_key;
}

export function markdownText(card: unknown): string {
  return elementsOf(card)
    .filter((e) => e.tag === 'markdown')
    .map((e) => String(e.content))
    .join('\n');
}

export function buttons(card: unknown): string[] {
  return buttonLabels(card);
}

/** The colours a card's header went through, with repeats collapsed. */
export function colourHistory(m: FakeMessage): string[] {
  const out: string[] = [];
  for (const v of m.history) {
    const c = headerColour(v);
    if (c && out[out.length - 1] !== c) out.push(c);
  }
  return out;
}

/** Turn and selection cards a bot sent in reply to (or in the thread of) a given message (streamed answer cards are not). */
export function cardsFor(fake: FakeFeishu, appId: string, parentOrRoot: string): FakeMessage[] {
  return fake.messages.filter((m) => m.appId === appId && m.msgType === 'interactive' && !m.cardId && (m.parentId === parentOrRoot || m.rootId === parentOrRoot));
}

/** Answer cards (CardKit entities the answer streamed into) in a chat, oldest first. */
export function answerCardsIn(fake: FakeFeishu, appId: string, chatId: string): FakeMessage[] {
  return fake.messages.filter((m) => m.appId === appId && m.chatId === chatId && m.msgType === 'interactive' && !!m.cardId);
}

/** Text a person reads from card markdown: the numeric entities escapeLarkMarkdown writes decode to their characters. */
export function decodeEntities(s: string): string {
  return s.replace(/&#(\d+);/g, (_m, n: string) => String.fromCodePoint(Number(n)));
}

/** A streamed answer card (a CardKit entity): its text as shown. */
export function answerText(m: FakeMessage): string {
  return decodeEntities(markdownText(m.content));
}

/** Messages a bot posted as text, and the final answers it streamed into answer cards (CardKit entities), in order. */
export function textsIn(fake: FakeFeishu, appId: string, chatId: string): string[] {
  return fake.messages
    .filter((m) => m.appId === appId && m.chatId === chatId && (m.msgType === 'text' || (m.msgType === 'interactive' && m.cardId)))
    .map((m) => (m.msgType === 'text' ? String((m.content as Json)?.text ?? '') : answerText(m)));
}

/** True when the bot posted a text or a streamed answer card containing `needle` in the topic (or reply thread) of `rootId`. */
export function answeredInTopic(fake: FakeFeishu, appId: string, rootId: string, needle: string): boolean {
  return fake.messages.some((m) => {
    if (m.appId !== appId || (m.rootId !== rootId && m.parentId !== rootId)) return false;
    const text = m.msgType === 'text' ? String((m.content as Json)?.text ?? '') : m.msgType === 'interactive' && m.cardId ? answerText(m) : '';
    return text.includes(needle);
  });
}
