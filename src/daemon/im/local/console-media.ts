// The console's files in memory: those the person attached in the composer and those a session sent, with caps.
import type { ConsoleMedia } from '../../../shared/console-protocol.js';
import { imageKind } from '../../../shared/image-kind.js';
import { newConsoleId } from './console-chat.js';

export const CONSOLE_MEDIA_LIMITS = {
  /**
   * Bytes kept in all; the oldest leave first. One Feishu-sized file (100 MiB inbound, 30 MiB outbound) always fits
   * beside a few more; a page showing a file that left offers nothing to download (it says "gone", like a screenshot).
   */
  totalBytes: 256 * 1024 * 1024,
  files: 200,
} as const;

/** The content types a browser shows inline as a picture, told by the first bytes (never by a name a sender chose). */
export function inlineImageType(bytes: Uint8Array): string | null {
  return imageKind(bytes)?.type ?? null;
}

interface Held {
  media: ConsoleMedia;
  bytes: Uint8Array;
}

export class ConsoleMediaStore {
  private readonly held = new Map<string, Held>();
  private bytes = 0;

  constructor(private readonly limits: { totalBytes: number; files: number } = CONSOLE_MEDIA_LIMITS) {}

  /** Keeps a file; a picture is one only when its bytes are one a browser shows (an SVG or HTML "picture" is a file). */
  add(bytes: Uint8Array, name: string, wanted: 'image' | 'file'): ConsoleMedia {
    const kind = wanted === 'image' && inlineImageType(bytes) ? 'image' : 'file';
    const media: ConsoleMedia = { kind, ref: newConsoleId(kind === 'image' ? 'pic' : 'file'), name: name.slice(0, 255), size: bytes.byteLength };
    this.held.set(media.ref, { media, bytes });
    this.bytes += bytes.byteLength;
    for (const [ref, h] of this.held) {
      if (this.bytes <= this.limits.totalBytes && this.held.size <= this.limits.files) break;
      if (ref === media.ref) break;
      this.held.delete(ref);
      this.bytes -= h.bytes.byteLength;
    }
    return media;
  }

  get(ref: string): Held | undefined {
    return this.held.get(ref);
  }
}
