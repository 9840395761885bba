// Feishu's limits both ways: what a session may send (images ≤ 10 MB, files ≤ 30 MB, neither empty; the console takes the
// same, so `larkmux send` behaves alike) and what a person's message may bring in (a bot's `attachments` limits).
import type { BotConfig } from '../../shared/config.js';
import type { MediaLimits } from './types.js';

export const LARK_MEDIA_LIMITS = { imageBytes: 10 * 1024 * 1024, fileBytes: 30 * 1024 * 1024 } as const satisfies MediaLimits;

/** The defaults of a bot's `attachments` limits (config.ts), in bytes: what a person's message may bring in. */
export const INBOUND_LIMITS = {
  /** A message carrying more attachments than this keeps the first ones (a forwarded album is not a backup). */
  maxFiles: 20,
  /** Sum of one message's attachments; a message with a single file may use up to maxFileBytes instead. */
  maxMessageBytes: 20 * 1024 * 1024,
  /** The platform lets users send files up to 100 MB. */
  maxFileBytes: 100 * 1024 * 1024,
} as const;

export interface InboundLimits {
  maxFiles: number;
  maxMessageBytes: number;
  maxFileBytes: number;
}

const MIB = 1024 * 1024;

/** A bot's configured limits (MiB in config.json) in bytes. */
export function inboundLimitsOf(a: BotConfig['attachments'] | undefined): InboundLimits {
  if (!a) return INBOUND_LIMITS;
  return { maxFiles: a.maxFiles, maxMessageBytes: Math.floor(a.maxMessageMiB * MIB), maxFileBytes: Math.floor(a.maxFileMiB * MIB) };
}
