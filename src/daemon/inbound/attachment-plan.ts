// Pure: where inbound pictures and files are kept in the session's folder, and how the CLI is told about them.
import type { BotConfig, CliSpec } from '../../shared/config.js';

/** The defaults of a bot's `attachments` limits (config.ts), in bytes. */
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

/** Said to the CLI when a message carries only attachments (the turn card shows it too). */
export const ATTACHMENT_ONLY_INSTRUCTION = 'Please look at the attached file(s).';

/** The folder under the working directory, one per day: `.larkmux/uploads/2026-12-01`. */
export function uploadFolder(now: Date): string {
  return `.larkmux/uploads/${now.toISOString().slice(0, 10)}`;
}

/** A picture's extension from its first bytes (the platform gives no name for pictures). */
export function imageExtension(bytes: Uint8Array): string {
  const hex = Buffer.from(bytes.subarray(0, 12)).toString('hex');
  if (hex.startsWith('89504e47')) return 'png';
  if (hex.startsWith('ffd8ff')) return 'jpg';
  if (hex.startsWith('47494638')) return 'gif';
  if (hex.startsWith('52494646') && hex.slice(16, 24) === '57454250') return 'webp';
  if (hex.startsWith('424d')) return 'bmp';
  return 'img';
}

/**
 * A safe file name: the sender's name without folders, control characters or a leading dot, prefixed so two
 * uploads of `report.pdf` never overwrite each other.
 */
export function storedName(prefix: string, senderName: string | undefined, fallbackExt: string): string {
  const base = (senderName ?? '').split(/[/\\]/).pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').replace(/^\.+/, '').slice(-120);
  return `${prefix}-${clean || `attachment.${fallbackExt}`}`;
}

/** How each CLI is pointed at a file: Claude Code reads `@path` (pictures included); others get the path. */
export function mentionPath(cli: CliSpec, relPath: string): string {
  const quoted = /\s/.test(relPath) ? `"${relPath}"` : relPath;
  return cli === 'claude-code' ? `@${quoted}` : quoted;
}
