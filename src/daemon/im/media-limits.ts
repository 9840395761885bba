// Feishu's upload limits (open platform docs: images ≤ 10 MB, files ≤ 30 MB, neither empty); the console takes the same, so `larkmux send` behaves alike.
import type { MediaLimits } from './types.js';

export const LARK_MEDIA_LIMITS = { imageBytes: 10 * 1024 * 1024, fileBytes: 30 * 1024 * 1024 } as const satisfies MediaLimits;
