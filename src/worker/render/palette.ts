// Colour resolution for the renderer: theme 16 colours, the xterm 256-colour cube and greys, truecolor, as 0xRRGGBB numbers.
import { THEME, type TerminalTheme } from '../../shared/theme.js';

export function parseHexColour(hex: string): number {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) throw new Error(`bad theme colour ${hex}`);
  return parseInt(m[1]!, 16);
}

/** The 6 levels of each axis of the xterm 256-colour cube (indices 16–231). */
const CUBE_LEVELS = [0, 95, 135, 175, 215, 255] as const;

export interface Palette {
  foreground: number;
  background: number;
  /** 256 entries: theme 0–15, cube 16–231, greys 232–255. */
  indexed: Uint32Array;
}

export function buildPalette(theme: TerminalTheme = THEME): Palette {
  const indexed = new Uint32Array(256);
  theme.ansi.forEach((c, i) => (indexed[i] = parseHexColour(c)));
  for (let i = 16; i < 232; i++) {
    const n = i - 16;
    const r = CUBE_LEVELS[Math.floor(n / 36)]!;
    const g = CUBE_LEVELS[Math.floor(n / 6) % 6]!;
    const b = CUBE_LEVELS[n % 6]!;
    indexed[i] = (r << 16) | (g << 8) | b;
  }
  for (let i = 232; i < 256; i++) {
    const v = 8 + (i - 232) * 10;
    indexed[i] = (v << 16) | (v << 8) | v;
  }
  return { foreground: parseHexColour(theme.foreground), background: parseHexColour(theme.background), indexed };
}

/** Mixes two 0xRRGGBB colours; `t` = share of `a` (dim text is fg mixed half into bg, like xterm's 50% alpha). */
export function mixColour(a: number, b: number, t: number): number {
  const ch = (shift: number) => Math.round(((a >> shift) & 0xff) * t + ((b >> shift) & 0xff) * (1 - t));
  return (ch(16) << 16) | (ch(8) << 8) | ch(0);
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function cssColour(rgb: number): string {
  return `#${HEX[(rgb >> 16) & 0xff]}${HEX[(rgb >> 8) & 0xff]}${HEX[rgb & 0xff]}`;
}
