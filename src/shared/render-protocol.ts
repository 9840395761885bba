// The renderer's contract: a captured pane in, a PNG out. One schema for the render process's messages and for the
// daemon ⇄ worker messages that carry the same screens and frames (ipc.ts), when one render process serves all sessions.
import { z } from 'zod';

export const RENDER_LIMITS = {
  /** capture-pane -e of the largest pane (1000×500 cells) with colour on every cell stays well below this. */
  ansi: 8 * 1024 * 1024,
  png: 16 * 1024 * 1024,
} as const;

const count = (max: number) => z.number().int().min(0).max(max);

/** A pane as captured: capture-pane -p -e -N output (one line per row, joined with \n) and its cursor. */
export const CapturedScreenSchema = z.strictObject({
  ansi: z.string().max(RENDER_LIMITS.ansi),
  cursor: z.strictObject({ x: count(1000), y: count(500), visible: z.boolean() }),
  cols: z.number().int().min(1).max(1000),
  rows: z.number().int().min(1).max(500),
});
export type CapturedScreen = z.infer<typeof CapturedScreenSchema>;

/**
 * `card` (the default for card images): soft-wrapped to a phone card's readable width, bottom kept (phoneCardFrame);
 * `wide`: the full-width screen cropped to the used cells, with a margin and phone scale (cardFrame);
 * `full`: every cell at scale 1, no margin (goldens).
 */
export const FrameKindSchema = z.enum(['card', 'wide', 'full']);
export type FrameKind = z.infer<typeof FrameKindSchema>;

/** Where the cells sit in the image. */
export const FrameLayoutSchema = z.strictObject({
  /** The cells painted: the grid's first `cols` columns of its first `rows` rows. */
  cols: count(1000),
  rows: count(500),
  /** Blank border around the cells, in unscaled pixels. */
  marginPx: count(1000),
  /** Integer pixel multiplier for the whole image. */
  scale: z.number().int().min(1).max(16),
});
export type FrameLayout = z.infer<typeof FrameLayoutSchema>;

const ms = z.number().min(0).max(3_600_000);
export const RenderTimingsSchema = z.strictObject({
  parseMs: ms,
  /** Drawing on the canvas only. */
  paintMs: ms,
  /** Pixel read-back (canvas.data()) + scanlines + deflate + PNG chunks. */
  encodeMs: ms,
});
export type ThreadTimings = z.infer<typeof RenderTimingsSchema>;

export const PngSchema = z.instanceof(Uint8Array).refine((b) => b.byteLength > 0 && b.byteLength <= RENDER_LIMITS.png, 'png must be 1 byte to 16 MiB');

/** Why a frame has no image: the screen could not be drawn, or the render process failed or was ended. */
export const RenderFailureCodeSchema = z.enum(['render-failed', 'render-thread-failed', 'closed']);
export type RenderFailureCode = z.infer<typeof RenderFailureCodeSchema>;

// ── host ⇄ render process (its own channel; the host is the worker, or the daemon for all sessions) ─────────────

/** The render process's init (argv[2], JSON). */
export interface RenderProcessInit {
  home: string;
}

/**
 * `stream` names a sequence of frames (the daemon uses the session id): the render process keeps that stream's
 * compressed bands and reuses the ones whose cells did not change. `forget` drops them (the session ended).
 */
export type ToRenderProcess =
  | { type: 'render'; id: number; screen: CapturedScreen; frame: FrameKind; stream?: string }
  | { type: 'forget'; stream: string };

/** Bands of a streamed frame, and how many were not deflated: kept from the stream's previous frame, or equal to one above. */
export interface FrameBandCounts {
  total: number;
  reused: number;
}

export type FromRenderProcess<Fonts = unknown> =
  | { type: 'ready'; fonts: Fonts }
  /** `png` is copied over the IPC channel (advanced serialization): ~0.1-0.3 MB per frame. */
  | { type: 'rendered'; id: number; png: Uint8Array; timings: ThreadTimings; frame: FrameLayout; bands?: FrameBandCounts }
  | { type: 'failed'; id: number; message: string };
