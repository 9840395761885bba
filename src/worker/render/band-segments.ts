// How a band's pixel rows go into its PNG bytes. A terminal card repeats itself vertically: the padding above and below
// each text row, blank rows and the straight strokes of box drawing are rows equal to the row above (58% of the rows
// of the 63 fixture cards, 32% of the CJK one). zlib at the phone card's level spends as long on such a row as on a row
// of text. A band's padding above and below its text is a row of one colour and rows repeating it: written as that row
// (made once per colour and row length) and PNG filter Up (every byte 0, made once per run length), zlib never sees it.

export type BandSegment =
  /** Rows [from, to) of the band, each as filter None + its bytes, deflated by zlib. */
  | { kind: 'rows'; from: number; to: number }
  /** Row `row`, one colour across: bytes made once per colour and row length. */
  | { kind: 'solid'; row: number }
  /** `count` rows each equal to the row above: filter Up and zeros, made once per count and row length. */
  | { kind: 'repeat'; count: number };

/** Row `y` of `rows` (rows of `rowBytes` bytes). */
const rowAt = (rows: Uint8Array, rowBytes: number, y: number) => rows.subarray(y * rowBytes, (y + 1) * rowBytes);

/** Two byte ranges equal (memcmp through Buffer, not a JS loop: a card row is 3-6 KB). */
function same(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

/** An RGBA row of one colour: every byte equals the one four bytes on. */
export function isSolidRow(row: Uint8Array): boolean {
  return row.length >= 4 && same(row.subarray(0, row.length - 4), row.subarray(4));
}

/**
 * The segments of a band of `count` RGBA rows, top to bottom: the solid rows heading the band and ending it (its
 * padding: a row of one colour and the rows repeating it) go apart from zlib, the rows between them go to zlib in one
 * stream, repeats and all. Splitting the middle too would cost a zlib stream per split (its setup and a pool trip, more
 * than the rows saved: measured on the CJK card, 73 streams for 38 bands took 25% more CPU than one per band).
 */
export function bandSegments(rows: Uint8Array, rowBytes: number, count: number): BandSegment[] {
  if (count <= 0) return [];
  const row = (y: number) => rowAt(rows, rowBytes, y);
  // Rows [0, headEnd): a solid row and its repeats.
  let headEnd = 0;
  if (isSolidRow(row(0))) {
    headEnd = 1;
    while (headEnd < count && same(row(headEnd), row(0))) headEnd++;
  }
  // Rows [tailStart, count): a solid row after the head and its repeats, to the band's end.
  let tailStart = count;
  if (headEnd < count) {
    const last = row(count - 1);
    let t = count - 1;
    while (t > headEnd && same(row(t - 1), last)) t--;
    if (isSolidRow(last)) tailStart = t;
  }
  const out: BandSegment[] = [];
  const solidRun = (from: number, to: number) => {
    out.push({ kind: 'solid', row: from });
    if (to - from > 1) out.push({ kind: 'repeat', count: to - from - 1 });
  };
  if (headEnd > 0) solidRun(0, headEnd);
  if (tailStart > headEnd) out.push({ kind: 'rows', from: headEnd, to: tailStart });
  if (tailStart < count) solidRun(tailStart, count);
  return out;
}
