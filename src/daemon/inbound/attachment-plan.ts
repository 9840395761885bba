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

/** An extension kept from the sender's name: letters and digits only, so the stored name stays inert when typed. */
const SAFE_EXTENSION = /^[A-Za-z0-9]{1,10}$/;

/**
 * The name a file is stored under: generated (`<prefix>.<ext>`), never the sender's. A typed path is then letters,
 * digits, `-`, `.` and `/` only, which no shell or CLI expands (a sender's `r$(touch x).txt` ran in a shell session,
 * issue 31 item 4); the sender's name is shown on the card only. The extension is kept when it is plain.
 */
export function storedName(prefix: string, senderName: string | undefined, fallbackExt: string): string {
  const base = (senderName ?? '').split(/[/\\]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 ? base.slice(dot + 1) : '';
  return `${prefix}.${SAFE_EXTENSION.test(ext) ? ext : fallbackExt}`;
}

/** True for a path made only of characters no shell, tmux or CLI acts on (what storedName and uploadFolder produce). */
export function isInertPath(relPath: string): boolean {
  return /^[A-Za-z0-9._/-]+$/.test(relPath) && !relPath.startsWith('-');
}

/** How each CLI is pointed at a saved file: Claude Code reads `@path` (pictures included); others get the path. */
export function mentionPath(cli: CliSpec, relPath: string): string {
  return cli === 'claude-code' ? `@${relPath}` : relPath;
}
