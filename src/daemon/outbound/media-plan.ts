// Pure: how a local file goes out to a chat (picture or attachment), or why it cannot.
import type { MediaLimits } from '../im/types.js';

/** Extensions the platforms show inline as pictures (Feishu: JPG/PNG/WEBP/GIF/BMP/ICO/TIFF/HEIC). */
export const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'ico', 'tif', 'tiff', 'heic']);

export function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

export type MediaPlan = { ok: true; as: 'image' | 'file' } | { ok: false; reason: 'empty' | 'too_large' | 'not_image'; limit?: number };

/**
 * `wanted` is `image` when the sender insists on a picture, `file` when it lets the extension decide.
 * A picture too large for an image message still goes out as a file when files may be that large.
 */
export function planMedia(path: string, size: number, wanted: 'image' | 'file', limits: MediaLimits): MediaPlan {
  if (size === 0) return { ok: false, reason: 'empty' };
  const looksLikeImage = IMAGE_EXTENSIONS.has(extensionOf(path));
  if (wanted === 'image') {
    if (!looksLikeImage) return { ok: false, reason: 'not_image' };
    return size <= limits.imageBytes ? { ok: true, as: 'image' } : { ok: false, reason: 'too_large', limit: limits.imageBytes };
  }
  if (looksLikeImage && size <= limits.imageBytes) return { ok: true, as: 'image' };
  return size <= limits.fileBytes ? { ok: true, as: 'file' } : { ok: false, reason: 'too_large', limit: limits.fileBytes };
}

export function mediaRefusal(plan: Extract<MediaPlan, { ok: false }>): string {
  switch (plan.reason) {
    case 'empty':
      return 'the file is empty';
    case 'not_image':
      return 'not a picture (png, jpg, gif, webp, bmp, ico, tiff, heic)';
    case 'too_large':
      return `larger than the platform accepts (${Math.floor((plan.limit ?? 0) / (1024 * 1024))} MB)`;
  }
}
