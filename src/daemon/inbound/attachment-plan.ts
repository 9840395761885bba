// Pure: where inbound pictures and files are kept in the session's folder, and how the CLI is told about them.
import type { CliSpec } from '../../shared/config.js';

/** Said to the CLI when a message carries only attachments (the turn card shows it too). */
export const ATTACHMENT_ONLY_INSTRUCTION = 'Please look at the attached file(s).';

/** The folder under the working directory, one per day: `.larkmux/uploads/2026-12-01`. */
export function uploadFolder(now: Date): string {
  return `.larkmux/uploads/${now.toISOString().slice(0, 10)}`;
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
