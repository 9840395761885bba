// Posts local files and text into a session's topic (the effects shell over media-plan.ts).
import { basename } from 'node:path';
import type { ImAdapter, MediaLimits } from '../im/types.js';
import type { ChatPlace } from '../ground/anchor.js';
import { sessionPlace, type SessionCore } from '../ground/session-core.js';
import type { FileAccess } from '../../platform/file-access.js';
import { describeLocalRefusal, readLocalFile, type FileReader, type LocalReadRefusal } from '../../platform/local-file-read.js';
import { mediaRefusal, planMedia } from './media-plan.js';

export type OutboundItem = { kind: 'file' | 'image'; path: string } | { kind: 'text'; text: string };

const readHere: FileReader = (path, limit, access) => readLocalFile(path, limit, access);

export interface PostTarget {
  im: ImAdapter;
  place: ChatPlace;
  replyTo?: string;
}

export interface PostOutcome {
  item: string;
  ok: boolean;
  messageId?: string;
  error?: string;
  /** Why the file was not read, when it was not (an answer's links tell a missing or outside file apart). */
  refused?: LocalReadRefusal['reason'];
}

/** The topic a session posts into: the thread it lives in, or the chat itself for a chat-scoped session. */
export function sessionTopic(im: ImAdapter, s: Pick<SessionCore, 'scope' | 'chatId' | 'chatType' | 'anchorId'>): PostTarget {
  return { im, place: sessionPlace(s), ...(s.scope === 'thread' ? { replyTo: s.anchorId } : {}) };
}

/** Without limits from the adapter, the strictest platform we know (Feishu) applies. */
const DEFAULT_LIMITS: MediaLimits = { imageBytes: 10 * 1024 * 1024, fileBytes: 30 * 1024 * 1024 };

function describe(item: OutboundItem): string {
  return item.kind === 'text' ? 'text' : item.path;
}

async function postOne(target: PostTarget, item: OutboundItem, { access, read: readFile = readHere, signal }: PostOptions): Promise<PostOutcome> {
  const { im, place, replyTo } = target;
  const name = describe(item);
  if (item.kind === 'text') {
    const r = await im.sendText(place, item.text, replyTo);
    return r.ok ? { item: name, ok: true, messageId: r.value.messageId } : { item: name, ok: false, error: r.message };
  }
  const limits = im.mediaLimits ?? DEFAULT_LIMITS;
  const canReceive = im.sendMedia !== undefined && im.uploadFile !== undefined;
  // Judged even where the chat takes no files (a byte is read then): an answer's links still tell a missing or an
  // outside file apart from one that could not go.
  const read = await readFile(item.path, canReceive ? Math.max(limits.imageBytes, limits.fileBytes) : 0, access, signal);
  if (!im.sendMedia || !im.uploadFile) return { item: name, ok: false, error: 'this chat cannot receive files', ...(read.ok ? {} : { refused: read.reason }) };
  if (!read.ok) return { item: name, ok: false, error: describeLocalRefusal(read), refused: read.reason };
  // Larger than limit (the largest media either kind may be): refused here, so a size without the data never goes on.
  const plan = planMedia(item.path, read.size ?? read.data.length, item.kind, limits);
  if (!plan.ok) return { item: name, ok: false, error: mediaRefusal(plan) };
  if (plan.as === 'image') {
    const up = await im.uploadImage(read.data);
    if (!up.ok) return { item: name, ok: false, error: up.message };
    const sent = await im.sendMedia(place, { kind: 'image', imageRef: up.value.imageRef }, replyTo);
    return sent.ok ? { item: name, ok: true, messageId: sent.value.messageId } : { item: name, ok: false, error: sent.message };
  }
  const up = await im.uploadFile(read.data, basename(item.path));
  if (!up.ok) return { item: name, ok: false, error: up.message };
  const sent = await im.sendMedia(place, { kind: 'file', fileRef: up.value.fileRef }, replyTo);
  return sent.ok ? { item: name, ok: true, messageId: sent.value.messageId } : { item: name, ok: false, error: sent.message };
}

export interface PostOptions {
  /** Where files may come from (the session's folder and answerFileRoots); a file elsewhere is not read. */
  access: FileAccess;
  /** Once it aborts (the request's deadline passed, its client left) nothing more is read or posted. */
  signal?: AbortSignal;
  /** Where the bytes come from: this machine (the default) or the session's host (remote-fetch.ts), by the same rules. */
  read?: FileReader;
}

/** Posts the items in order, one message each; a failing item is reported and the rest still go out. */
export async function postItems(target: PostTarget, items: readonly OutboundItem[], opts: PostOptions): Promise<PostOutcome[]> {
  const out: PostOutcome[] = [];
  for (const item of items) {
    if (opts.signal?.aborted) out.push({ item: describe(item), ok: false, error: 'not sent: the request was given up' });
    else out.push(await postOne(target, item, opts));
  }
  return out;
}
