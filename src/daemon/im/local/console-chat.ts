// The console's conversation in memory: topics, their entries (messages and cards) and screenshots, with caps.
import { randomBytes } from 'node:crypto';
import type { CardModel } from '../../../shared/card-model.js';
import type { ConsoleEntry, ConsoleTopic } from '../../../shared/console-protocol.js';

export const CONSOLE_CHAT_LIMITS = {
  /** A long session keeps its latest entries; older ones leave the page (the CLI's own history stays in tmux). */
  entriesPerTopic: 400,
  topics: 200,
  /** Screenshots kept beyond those a card shows (a card shows only its latest; uploads not yet shown wait here). */
  images: 64,
} as const;

/**
 * Ids are random, not counters: dedupe remembers message ids across daemon restarts, so a counter starting again
 * at 1 would make new messages look like redeliveries.
 */
export function newConsoleId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}

/** One topic with its entries: how the chat is saved (console-chat-file.ts). */
export interface TopicRecord {
  id: string;
  topic: ConsoleTopic;
  entries: ConsoleEntry[];
}

export class ConsoleChat {
  /** Told when a topic or its entries change (record) or the topic is dropped (undefined). */
  onChange: ((topicId: string, record: TopicRecord | undefined) => void) | null = null;
  private readonly topics = new Map<string, ConsoleTopic>();
  private readonly entries = new Map<string, ConsoleEntry[]>();
  /** Entry id → its topic (cards are patched by id; replies name the message they answer). */
  private readonly topicOfEntry = new Map<string, string>();
  private readonly images = new Map<string, Uint8Array>();

  addTopic(topic: ConsoleTopic): void {
    this.topics.set(topic.id, topic);
    this.entries.set(topic.id, []);
    this.changed(topic.id);
    while (this.topics.size > CONSOLE_CHAT_LIMITS.topics) {
      const oldest = this.topics.keys().next().value as string;
      for (const e of this.entries.get(oldest) ?? []) this.topicOfEntry.delete(e.id);
      this.topics.delete(oldest);
      this.entries.delete(oldest);
      this.onChange?.(oldest, undefined);
    }
  }

  /** Saved topics back after a restart (screenshots are not saved: the page hides images that are gone). */
  restore(records: readonly TopicRecord[]): void {
    for (const r of records) {
      this.topics.set(r.topic.id, r.topic);
      this.entries.set(r.topic.id, [...r.entries]);
      for (const e of r.entries) this.topicOfEntry.set(e.id, r.topic.id);
    }
  }

  private changed(topicId: string): void {
    const topic = this.topics.get(topicId);
    if (topic && this.onChange) this.onChange(topicId, { id: topicId, topic, entries: this.entries.get(topicId) ?? [] });
  }

  topic(id: string): ConsoleTopic | undefined {
    return this.topics.get(id);
  }

  topicOf(entryId: string): string | undefined {
    return this.topicOfEntry.get(entryId);
  }

  entry(id: string): ConsoleEntry | undefined {
    const topicId = this.topicOfEntry.get(id);
    return topicId ? this.entries.get(topicId)?.find((e) => e.id === id) : undefined;
  }

  /** Adds an entry, or replaces the one with the same id in place. False when its topic is unknown. */
  put(entry: ConsoleEntry): boolean {
    const list = this.entries.get(entry.topicId);
    if (!list) return false;
    const i = list.findIndex((e) => e.id === entry.id);
    if (i >= 0) list[i] = entry;
    else {
      list.push(entry);
      this.topicOfEntry.set(entry.id, entry.topicId);
      if (list.length > CONSOLE_CHAT_LIMITS.entriesPerTopic) this.topicOfEntry.delete(list.shift()!.id);
    }
    this.changed(entry.topicId);
    return true;
  }

  updateCard(entryId: string, card: CardModel): ConsoleEntry | undefined {
    const e = this.entry(entryId);
    if (!e || e.kind !== 'card') return undefined;
    const next: ConsoleEntry = { ...e, card };
    this.put(next);
    return next;
  }

  addImage(png: Uint8Array): string {
    const ref = newConsoleId('img');
    this.images.set(ref, png);
    if (this.images.size > CONSOLE_CHAT_LIMITS.images) {
      // Drop the oldest screenshots no card shows any more (frozen cards keep their last one).
      const shown = new Set<string>();
      for (const list of this.entries.values()) for (const e of list) if (e.kind === 'card' && e.card.kind === 'stream' && e.card.image) shown.add(e.card.image.ref);
      for (const old of [...this.images.keys()]) {
        if (this.images.size <= CONSOLE_CHAT_LIMITS.images) break;
        if (old !== ref && !shown.has(old)) this.images.delete(old);
      }
    }
    return ref;
  }

  image(ref: string): Uint8Array | undefined {
    return this.images.get(ref);
  }

  snapshot(): { topics: ConsoleTopic[]; entries: ConsoleEntry[] } {
    return { topics: [...this.topics.values()], entries: [...this.entries.values()].flat() };
  }
}
