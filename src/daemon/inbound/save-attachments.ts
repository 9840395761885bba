// Downloads a message's attachments into the session's folder (`.larkmux/uploads/<date>/`, no link followed at any
// level), within the bot's limits (INBOUND_LIMITS by default): on this machine, or on the session's host (`open`).
import { randomBytes } from 'node:crypto';
import type { ImAdapter, InboundAttachment } from '../im/types.js';
import { localUploadFolder, UploadBlocked, type OpenUploadFolder } from '../../platform/upload-dir.js';
import { imageExtension } from '../../shared/image-kind.js';
import { INBOUND_LIMITS, type InboundLimits } from '../im/media-limits.js';
import { storedName, uploadFolder } from './attachment-plan.js';

export interface SavedFile {
  /** Relative to the working directory; a generated name (inert when typed, see storedName). */
  path: string;
  /** The sender's name for it (shown on the card, never typed); absent for pictures. */
  name?: string;
}

export interface Refusal {
  /** Told in the chat: may carry the sender's file name. */
  shown: string;
  /** Noted to a model CLI: never a name the sender chose. */
  typed: string;
}

export interface SavedAttachments {
  /** In message order. */
  saved: SavedFile[];
  refused: Refusal[];
  /** Downloaded but not written into the folder (a full disk, the host unreachable): told apart from the limits. */
  failed: Refusal[];
  /** The level of the upload folder that is a link or not a folder (`.larkmux/uploads`): nothing was written. */
  blocked?: string;
}

const refusal = (shown: string, typed = shown): Refusal => ({ shown, typed });

export async function saveAttachments(
  im: ImAdapter, cwd: string, atts: readonly InboundAttachment[], now = new Date(), limits: InboundLimits = INBOUND_LIMITS, open: OpenUploadFolder = localUploadFolder,
): Promise<SavedAttachments> {
  const out: SavedAttachments = { saved: [], refused: [], failed: [] };
  if (!im.downloadAttachment) return { saved: [], refused: atts.map(() => refusal('this chat cannot download attachments')), failed: [] };
  const folder = uploadFolder(now);
  const linkRefusal = (a: InboundAttachment) => refusal(a.name ?? a.kind, `a ${a.kind}: the upload folder is a link`);
  const opened = await open(cwd, folder);
  if (!opened.ok) return { saved: [], refused: atts.map(linkRefusal), failed: [], blocked: opened.refused };
  try {
    const list = atts.slice(0, limits.maxFiles);
    if (atts.length > list.length) out.refused.push(refusal(`${atts.length - list.length} more attachment(s) beyond ${limits.maxFiles} a message`));
    const single = list.length === 1;
    let budget = single ? limits.maxFileBytes : limits.maxMessageBytes;
    for (const att of list) {
      const r = await im.downloadAttachment(att, Math.min(budget, limits.maxFileBytes));
      if (!r.ok) {
        out.refused.push(refusal(`${att.name ?? att.kind}: ${r.message}`, `a ${att.kind}: ${r.message}`));
        continue;
      }
      budget -= r.value.byteLength;
      const prefix = `${now.toISOString().slice(11, 19).replace(/:/g, '')}-${randomBytes(3).toString('hex')}`;
      const name = att.kind === 'image' ? `${prefix}.${imageExtension(r.value)}` : storedName(prefix, att.name, 'bin');
      // Written aside, then renamed: whoever watches the folder (the CLI, a test) never sees half a file.
      try {
        await opened.dir.write(name, r.value);
      } catch (err) {
        if (err instanceof UploadBlocked) {
          out.blocked = err.level;
          out.refused.push(...list.slice(list.indexOf(att)).map(linkRefusal));
          break;
        }
        out.failed.push(refusal(`${att.name ?? att.kind}: ${(err as Error).message}`, `a ${att.kind}: it could not be written into the session's folder`));
        continue;
      }
      out.saved.push({ path: `${folder}/${name}`, ...(att.kind === 'file' && att.name ? { name: att.name } : {}) });
    }
  } finally {
    await opened.dir.close();
  }
  return out;
}
