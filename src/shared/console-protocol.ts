// The local console's wire (DESIGN §11): messages between the /console/ page and the daemon over one WebSocket.
import { z } from 'zod';
import { CardActionValueSchema, CardModelSchema } from './card-model.js';
import { LocaleSchema } from './i18n.js';

export const CONSOLE_PROTOCOL_VERSION = 1;

export const CONSOLE_PATHS = {
  /** Everything of the console lives under this prefix of the web port. */
  root: '/console/',
  ws: '/console/ws',
  /** Screenshots and pictures, shown inline: `/console/img/<ref>` (only PNG, JPEG, GIF, WebP and BMP). */
  image: '/console/img/',
  /** Files (and pictures) as downloads: `/console/file/<ref>`, always `Content-Disposition: attachment`. */
  file: '/console/file/',
  /** POST from the composer: the raw bytes of one attached file, its name in the `x-file-name` header (URI-encoded). */
  upload: '/console/upload',
  /** Opens a session's web terminal with write access for the console user: `/console/term/<sessionId>`. */
  term: '/console/term/',
  /** POST (from the page's own form): ends every console cookie, this browser's included. */
  signOut: '/console/sign-out',
} as const;

/** Web hosts that mean "this machine" (a wildcard listens here too): the page is opened at 127.0.0.1. */
const LOOPBACK_HOSTS: readonly string[] = ['0.0.0.0', '::', '127.0.0.1', '::1', 'localhost'];

/** The console page's URL for a person: loopback unless the web port is published under its own URL. */
export function consolePageUrl(web: { host: string; publicUrl?: string | undefined }, port: number): string {
  const host = LOOPBACK_HOSTS.includes(web.host) ? '127.0.0.1' : web.host.includes(':') ? `[${web.host}]` : web.host;
  const base = web.publicUrl ? web.publicUrl.replace(/\/+$/, '') : `http://${host}:${port}`;
  return `${base}${CONSOLE_PATHS.root}`;
}

export const CONSOLE_LIMITS = {
  /** A prompt may be a 100 KB paste (CJK is 3 bytes a character in UTF-8); anything longer is refused, not cut. */
  textChars: 200_000,
  /** One frame from the page: the longest prompt in JSON with room for escapes. */
  maxFrameBytes: 1024 * 1024,
  /** Attachments one message carries (a Feishu message with more keeps the first 20, attachment-plan.ts). */
  attachments: 20,
} as const;

const id = z.string().min(1).max(128);
const text = z.string().max(CONSOLE_LIMITS.textChars);

export const ConsoleTopicSchema = z.strictObject({
  id,
  /** The first line of the first message. */
  title: z.string().max(200),
  cli: z.string().max(200),
  project: z.string().max(4096),
  createdAt: z.number(),
});
export type ConsoleTopic = z.infer<typeof ConsoleTopicSchema>;

/** A picture or file in the conversation: one the person attached, or one a session sent (`larkmux send`). */
export const ConsoleMediaSchema = z.strictObject({
  kind: z.enum(['image', 'file']),
  ref: id,
  /** The file's name as given (shown, and offered as the download's name); pictures from a CLI may have none. */
  name: z.string().max(255),
  size: z.number().int().nonnegative(),
});
export type ConsoleMedia = z.infer<typeof ConsoleMediaSchema>;

/** The answer to an upload POST: what the page then names in its `send` or `new_topic`. */
export const ConsoleUploadReplySchema = z.union([z.strictObject({ ok: z.literal(true), media: ConsoleMediaSchema }), z.strictObject({ ok: z.literal(false), error: z.string().max(4000) })]);
export type ConsoleUploadReply = z.infer<typeof ConsoleUploadReplySchema>;

const attachments = z.array(ConsoleMediaSchema).max(CONSOLE_LIMITS.attachments);

/** One item of a topic's conversation; a card is replaced in place (same id) when the daemon patches it. */
export const ConsoleEntrySchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('user'), id, topicId: id, text, at: z.number(), reaction: z.string().max(64).optional(), attachments: attachments.optional() }),
  z.strictObject({ kind: z.literal('text'), id, topicId: id, text, at: z.number() }),
  z.strictObject({ kind: z.literal('media'), id, topicId: id, media: ConsoleMediaSchema, at: z.number() }),
  z.strictObject({ kind: z.literal('card'), id, topicId: id, card: CardModelSchema, at: z.number() }),
]);
export type ConsoleEntry = z.infer<typeof ConsoleEntrySchema>;

export const ConsoleChoicesSchema = z.strictObject({
  clis: z.array(z.strictObject({ id, label: z.string().max(200) })),
  projects: z.array(z.strictObject({ label: z.string().max(200), path: z.string().max(4096) })),
});
export type ConsoleChoices = z.infer<typeof ConsoleChoicesSchema>;

/** Daemon → page. */
export const ConsoleServerMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('hello'),
    protocol: z.literal(CONSOLE_PROTOCOL_VERSION),
    /** The language the console writes in (cards, notices, toasts): the page speaks it too. */
    locale: LocaleSchema.optional(),
    choices: ConsoleChoicesSchema,
    /** The largest file the composer may attach (a bot's default `attachments.maxFileMiB`), so the page refuses early. */
    uploadBytes: z.number().int().positive().optional(),
    topics: z.array(ConsoleTopicSchema),
    entries: z.array(ConsoleEntrySchema),
  }),
  /** A topic was created; `requestId` echoes the page's new_topic so that page opens it. */
  z.strictObject({ type: z.literal('topic'), topic: ConsoleTopicSchema, requestId: id.optional() }),
  z.strictObject({ type: z.literal('entry'), entry: ConsoleEntrySchema }),
  z.strictObject({ type: z.literal('toast'), level: z.enum(['info', 'success', 'error', 'warning']), text: z.string().max(4000) }),
  /** A direct message to the console user (the IM's DM). */
  z.strictObject({ type: z.literal('direct'), text }),
]);
export type ConsoleServerMessage = z.infer<typeof ConsoleServerMessageSchema>;

/** Page → daemon. A message has text, attachments (refs from upload replies), or both; the adapter refuses neither. */
export const ConsoleClientMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('new_topic'), requestId: id, cli: id, project: z.string().min(1).max(4096), text, attachments: z.array(id).max(CONSOLE_LIMITS.attachments).optional() }),
  z.strictObject({ type: z.literal('send'), topicId: id, text, attachments: z.array(id).max(CONSOLE_LIMITS.attachments).optional() }),
  z.strictObject({ type: z.literal('action'), entryId: id, value: CardActionValueSchema }),
]);
export type ConsoleClientMessage = z.infer<typeof ConsoleClientMessageSchema>;
