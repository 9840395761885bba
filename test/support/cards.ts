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

/** Interactive messages a bot sent in reply to (or in the thread of) a given message. */
export function cardsFor(fake: FakeFeishu, appId: string, parentOrRoot: string): FakeMessage[] {
  return fake.messages.filter((m) => m.appId === appId && m.msgType === 'interactive' && (m.parentId === parentOrRoot || m.rootId === parentOrRoot));
}

export function textsIn(fake: FakeFeishu, appId: string, chatId: string): string[] {
  return fake.messages.filter((m) => m.appId === appId && m.chatId === chatId && m.msgType === 'text').map((m) => String((m.content as Json)?.text ?? ''));
}
