// Long text cut into parts that each fit a platform's byte limit (UTF-8), in order, losing nothing: a cut never falls
// inside a character (CJK is 3 bytes, emoji 4 and a surrogate pair in JS) and prefers a line break.

/** Bytes a code point costs: its UTF-8 length, unless the caller counts escaping too. */
export type CodePointCost = (codePoint: number) => number;

export const utf8Cost: CodePointCost = (cp) => (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4);

/** A cut goes back to the last line break when one lies in the later half of the part (else mid-line). */
const LINE_BREAK_REACH = 0.5;

/**
 * Splits `text` into parts of at most `maxBytes` (as counted by `cost`), in order; joined they are exactly `text`.
 * A single code point costlier than `maxBytes` still gets a part of its own (nothing is dropped).
 */
export function splitByBytes(text: string, maxBytes: number, cost: CodePointCost = utf8Cost): string[] {
  if (maxBytes < 1) throw new Error('maxBytes must be at least 1');
  const parts: string[] = [];
  let start = 0;
  let bytes = 0;
  let lastBreak = -1;
  let breakBytes = 0;
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    const c = cost(cp);
    if (bytes + c > maxBytes && i > start) {
      const useBreak = lastBreak > start && breakBytes >= maxBytes * LINE_BREAK_REACH;
      const cut = useBreak ? lastBreak : i;
      parts.push(text.slice(start, cut));
      bytes = useBreak ? bytes - breakBytes : 0;
      start = cut;
      lastBreak = -1;
      breakBytes = 0;
    }
    bytes += c;
    i += width;
    if (cp === 0x0a) {
      lastBreak = i;
      breakBytes = bytes;
    }
  }
  if (start < text.length || parts.length === 0) parts.push(text.slice(start));
  return parts;
}

/** UTF-8 size of a string. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The last `maxChars` UTF-16 units of `text`, one fewer when the cut would leave half a surrogate pair in front. */
export function tailWhole(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const start = text.length - maxChars;
  const first = text.charCodeAt(start);
  return text.slice(first >= 0xdc00 && first <= 0xdfff ? start + 1 : start);
}
