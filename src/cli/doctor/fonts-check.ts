// Doctor lines for the screenshot fonts: one per tier (latin, symbols, cjk, emoji) naming the serving file, or the exact fix.
import type { DoctorCheck, DoctorLine } from './types.js';

/** What each tier is for, shown beside the file so a user knows what a missing tier costs. */
const TIER_ROLE = {
  latin: 'Latin monospace, sets the cell width',
  symbols: 'symbols and box drawing fallback',
  cjk: 'Simplified Chinese',
  emoji: 'colour emoji',
} as const;

export const fontsCheck: DoctorCheck = async ({ paths }) => {
  // Loaded lazily: the renderer's font module pulls in @napi-rs/canvas.
  const { fontReport } = await import('../../worker/render/fonts.js');
  return fontReport(paths.home).map((t): DoctorLine => {
    const role = TIER_ROLE[t.tier];
    // Missing fonts degrade screenshots (tofu, Japanese glyph forms, wrong cell width) but nothing stops: WARN, not FAIL.
    if (t.ok) return { level: 'OK', label: `font ${t.tier}`, detail: `${t.file}, ${role}` };
    const serving = t.file ? `served by ${t.file}` : 'no font found';
    return { level: 'WARN', label: `font ${t.tier}`, detail: `${role}: ${serving}${t.note ? ` (${t.note})` : ''}`, fix: t.fix };
  });
};
