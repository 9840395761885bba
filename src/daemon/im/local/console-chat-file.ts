// Keeps the console's topics and their entries in LARKMUX_HOME/console-chat.json, so a restart keeps the conversation.
import { join } from 'node:path';
import { z } from 'zod';
import { ConsoleEntrySchema, ConsoleTopicSchema } from '../../../shared/console-protocol.js';
import type { Logger } from '../../../platform/log.js';
import type { StoreLoadFailure } from '../../../platform/durable-file.js';
import { RecordFile } from '../../ground/store.js';
import type { ConsoleChat, TopicRecord } from './console-chat.js';

export const CONSOLE_CHAT_FILE = {
  name: 'console-chat.json',
  /** Cards change every 2 s while a CLI works; one write per 2 s keeps the disk quiet and loses at most that on a crash. */
  debounceMs: 2000,
  /** Entries kept per topic on disk (the page shows more while the daemon runs). */
  entriesPerTopic: 100,
} as const;

const TopicRecordSchema = z.strictObject({ id: z.string(), topic: ConsoleTopicSchema, entries: z.array(ConsoleEntrySchema) });

export class ConsoleChatFile {
  private readonly file: RecordFile<TopicRecord>;

  constructor(home: string, log: Logger) {
    this.file = new RecordFile(join(home, CONSOLE_CHAT_FILE.name), { format: 'larkmux-console-chat', schema: TopicRecordSchema, idOf: (r) => r.id }, { debounceMs: CONSOLE_CHAT_FILE.debounceMs, log });
  }

  /** Loads the saved topics into `chat` and from then on saves what changes. */
  async attach(chat: ConsoleChat): Promise<{ ok: true } | StoreLoadFailure> {
    const res = await this.file.load();
    if (res.ok) chat.restore(res.records.sort((a, b) => a.topic.createdAt - b.topic.createdAt));
    chat.onChange = (topicId, record) => {
      if (record) this.file.put({ ...record, entries: record.entries.slice(-CONSOLE_CHAT_FILE.entriesPerTopic) });
      else this.file.delete(topicId);
    };
    return res.ok ? { ok: true } : res;
  }

  dispose(): Promise<void> {
    return this.file.dispose();
  }
}
