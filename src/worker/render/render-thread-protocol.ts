// Messages between the worker and its render process (one module, imported by both sides).
import type { LoadedFonts } from './fonts.js';
import type { CapturedScreen } from './screen-model.js';
import type { FrameLayout } from './card-frame.js';

/** The render process's init (argv[2], JSON). */
export interface RenderThreadInit {
  home: string;
}

export interface ThreadTimings {
  parseMs: number;
  /** Drawing on the canvas only. */
  paintMs: number;
  /** Pixel read-back (canvas.data()) + scanlines + deflate + PNG chunks. */
  encodeMs: number;
}

/**
 * `card` (the default for card images): soft-wrapped to a phone card's readable width, bottom kept (phoneCardFrame);
 * `wide`: the full-width screen cropped to the used cells, with a margin and phone scale (cardFrame);
 * `full`: every cell at scale 1, no margin (goldens).
 */
export type FrameKind = 'card' | 'wide' | 'full';

export type ToRenderThread = { type: 'render'; id: number; screen: CapturedScreen; frame: FrameKind };

export type FromRenderThread =
  | { type: 'ready'; fonts: LoadedFonts }
  /** `png` is copied over the IPC channel (advanced serialization): ~0.1-0.3 MB per frame. */
  | { type: 'rendered'; id: number; png: Uint8Array; timings: ThreadTimings; frame: FrameLayout }
  | { type: 'failed'; id: number; message: string };
