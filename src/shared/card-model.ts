// The IM-agnostic card model (DESIGN §7): the core says what a card shows; each IM adapter renders it.
import { z } from 'zod';
import type { MessageKey, Translate } from './i18n.js';
import { KeyNameSchema } from './keys.js';
import { DisplayModeSchema, HurryHowSchema, SessionStatusSchema } from './ipc.js';

/** A button's effect, sent back by the IM when someone taps it. Small on purpose: it travels in callbacks. */
export const CardActionValueSchema = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('key'), sessionId: z.string(), key: KeyNameSchema }),
  z.strictObject({ action: z.literal('display'), sessionId: z.string(), mode: DisplayModeSchema }),
  z.strictObject({ action: z.literal('select'), sessionId: z.string(), promptId: z.string(), optionIndex: z.number().int().min(0) }),
  z.strictObject({ action: z.literal('write_link'), sessionId: z.string() }),
  z.strictObject({ action: z.literal('close'), sessionId: z.string() }),
  z.strictObject({ action: z.literal('project'), anchorKey: z.string(), path: z.string() }),
  z.strictObject({ action: z.literal('screen'), sessionId: z.string() }),
  /** /adopt: take over this pane; the CLI's pid too, so a tap on a stale list cannot take a pane that runs something else now. */
  /** `host`: the configured host the pane is on (absent: this machine). */
  z.strictObject({ action: z.literal('adopt'), anchorKey: z.string(), paneId: z.string(), pid: z.number().int().positive(), host: z.string().optional() }),
  /** /schedules: pause, resume or delete one schedule of the topic. */
  z.strictObject({ action: z.literal('schedule'), scheduleId: z.string(), op: z.enum(['pause', 'resume', 'delete']) }),
  /** A message waiting behind a working CLI (issue 30 item 4): steer it in now, or interrupt the turn and send it. */
  z.strictObject({ action: z.literal('hurry'), sessionId: z.string(), turnId: z.string(), how: HurryHowSchema }),
]);
export type CardActionValue = z.infer<typeof CardActionValueSchema>;

// The card kinds below are alike in shape (strict objects of a kind, a session id, a title, optional parts): each is
// its own contract, checked when an adapter receives it, and they change apart; a shared base schema would let one
// kind's new field leak into the others.
export const CardButtonSchema = z.strictObject({
  label: z.string(),
  style: z.enum(['default', 'primary', 'danger']).default('default'),
  /** A callback button carries a value; a link button carries a URL. */
  value: CardActionValueSchema.optional(),
  url: z.string().optional(),
});
export type CardButton = z.infer<typeof CardButtonSchema>;

export const StreamingCardSchema = z.strictObject({
  kind: z.literal('stream'),
  sessionId: z.string(),
  title: z.string(),
  subtitle: z.string().optional(),
  status: SessionStatusSchema,
  display: DisplayModeSchema,
  /** Present when display = screenshot and an image has been uploaded (adapter fills the IM's image key). */
  image: z.strictObject({ ref: z.string(), width: z.number().optional(), height: z.number().optional() }).optional(),
  /** Shown when display = text, or as a fallback when the image cannot be shown. */
  screenText: z.string().optional(),
  notice: z.string().optional(),
  /** The last turn's figures (model · context · tokens · elapsed) where the CLI's transcript reports them (issue 30.2). */
  footer: z.string().optional(),
  keys: z.array(KeyNameSchema),
  buttons: z.array(CardButtonSchema),
  frozen: z.boolean(),
});
export type StreamingCard = z.infer<typeof StreamingCardSchema>;

/** Who a card singles out and what the chat list shows for it while it waits (issue 16). */
export const CardAttentionSchema = z.strictObject({
  /** The person to @-mention (an IM user id); never the group. */
  mention: z.string().optional(),
  /** The chat-list preview: the question the card asks. */
  summary: z.string().optional(),
});
export type CardAttention = z.infer<typeof CardAttentionSchema>;

export const SelectionCardSchema = z.strictObject({
  kind: z.literal('selection'),
  sessionId: z.string(),
  promptId: z.string(),
  title: z.string(),
  options: z.array(z.strictObject({ label: z.string() })),
  defaultIndex: z.number().int().min(0),
  /** Once answered: who chose what (and what they typed, for a typed answer); the card then shows no buttons. */
  answered: z.strictObject({ by: z.string(), optionIndex: z.number().int().min(0), text: z.string().optional() }).optional(),
  /** The option that takes a typed answer (Claude's "Type something."): the card offers a text box for it. */
  textOption: z.number().int().min(0).optional(),
  attention: CardAttentionSchema.optional(),
});
export type SelectionCard = z.infer<typeof SelectionCardSchema>;

export const PickerCardSchema = z.strictObject({
  kind: z.literal('picker'),
  anchorKey: z.string(),
  title: z.string(),
  projects: z.array(z.strictObject({ label: z.string(), path: z.string() })),
  chosen: z.string().optional(),
});
export type PickerCard = z.infer<typeof PickerCardSchema>;

/** What a turn changed in a git working tree: files with +/− lines, the first hunk of the largest change, the whole diff's link. */
export const ChangesCardSchema = z.strictObject({
  kind: z.literal('changes'),
  sessionId: z.string(),
  /** Lines added and deleted per file; null for a binary file. */
  files: z.array(z.strictObject({ path: z.string(), added: z.number().int().nullable(), deleted: z.number().int().nullable() })),
  /** Files changed beyond those listed. */
  moreFiles: z.number().int().min(0),
  hunk: z.strictObject({ path: z.string(), text: z.string() }).optional(),
  /** The web diff page (needs the session's view token); absent when the web terminal is off. */
  diffUrl: z.string().optional(),
});
export type ChangesCard = z.infer<typeof ChangesCardSchema>;

/** /adopt's list of hand-started panes running a CLI: one button each; once taken, the chosen one. */
export const AdoptCardSchema = z.strictObject({
  kind: z.literal('adopt'),
  anchorKey: z.string(),
  title: z.string(),
  candidates: z.array(z.strictObject({ label: z.string(), paneId: z.string(), pid: z.number().int().positive(), host: z.string().optional() })),
  chosen: z.string().optional(),
});
export type AdoptCard = z.infer<typeof AdoptCardSchema>;

/** /schedules: each schedule of the topic as a line (what, next run, creator) with its buttons; `empty` when none. */
export const SchedulesCardSchema = z.strictObject({
  kind: z.literal('schedules'),
  title: z.string(),
  rows: z.array(z.strictObject({ scheduleId: z.string(), text: z.string(), paused: z.boolean() })),
  empty: z.string().optional(),
});
export type SchedulesCard = z.infer<typeof SchedulesCardSchema>;

export const CardModelSchema = z.discriminatedUnion('kind', [StreamingCardSchema, SelectionCardSchema, PickerCardSchema, ChangesCardSchema, AdoptCardSchema, SchedulesCardSchema]);
export type CardModel = z.infer<typeof CardModelSchema>;

/** An option of a selection card as one line: TUI menus often number their options already ("1. Yes"), keep theirs. */
export function numberedOption(label: string, index: number): string {
  return /^\d+[.)]\s/.test(label) ? label : `${index + 1}. ${label}`;
}

/** Header colour and catalogue key of the name per status; the Feishu adapter maps colour names onto its templates. */
export const STATUS_LOOK = {
  starting: { colour: 'blue', label: 'status.starting' },
  working: { colour: 'orange', label: 'status.working' },
  waiting: { colour: 'red', label: 'status.waiting' },
  idle: { colour: 'green', label: 'status.idle' },
  limited: { colour: 'purple', label: 'status.limited' },
  exited: { colour: 'grey', label: 'status.exited' },
  failed: { colour: 'red', label: 'status.failed' },
} as const satisfies Record<z.infer<typeof SessionStatusSchema>, { colour: string; label: MessageKey }>;

/** A status as a user reads it, in the bot's locale. */
export function statusLabel(status: z.infer<typeof SessionStatusSchema>, t: Translate): string {
  return t(STATUS_LOOK[status].label);
}
