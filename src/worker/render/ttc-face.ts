// Pure reading of a TrueType/OpenType collection (.ttc): list its faces' family names and copy one face out as a
// standalone font. @napi-rs/canvas registers only face 0 of a .ttc (the Japanese one in Noto Sans CJK), so the
// Simplified Chinese face is copied out in JS — no python, no network, no separate setup step.

const TTC_TAG = 0x74746366; // 'ttcf'
const HEAD_TAG = 0x68656164; // 'head'
const NAME_TAG = 0x6e616d65; // 'name'
/** OpenType: head.checkSumAdjustment = this minus the checksum of the whole file. */
const CHECKSUM_MAGIC = 0xb1b0afba;
const NAME_ID_FAMILY = 1;

interface TableRecord {
  tag: number;
  checksum: number;
  offset: number;
  length: number;
}

interface FaceDirectory {
  sfntVersion: number;
  tables: TableRecord[];
}

function faceOffsets(buf: Buffer): number[] {
  if (buf.length < 12 || buf.readUInt32BE(0) !== TTC_TAG) throw new Error('not a font collection (no ttcf header)');
  const count = buf.readUInt32BE(8);
  if (12 + count * 4 > buf.length) throw new Error('font collection header is truncated');
  return Array.from({ length: count }, (_, i) => buf.readUInt32BE(12 + i * 4));
}

function readDirectory(buf: Buffer, at: number): FaceDirectory {
  const numTables = buf.readUInt16BE(at + 4);
  const tables: TableRecord[] = [];
  for (let i = 0; i < numTables; i++) {
    const r = at + 12 + i * 16;
    const rec = { tag: buf.readUInt32BE(r), checksum: buf.readUInt32BE(r + 4), offset: buf.readUInt32BE(r + 8), length: buf.readUInt32BE(r + 12) };
    if (rec.offset + rec.length > buf.length) throw new Error('font table lies outside the file');
    tables.push(rec);
  }
  return { sfntVersion: buf.readUInt32BE(at), tables };
}

/** The family name (name id 1) of a face: the Windows English record, else any Windows or Mac record. */
function familyName(buf: Buffer, dir: FaceDirectory): string {
  const name = dir.tables.find((t) => t.tag === NAME_TAG);
  if (!name) return '';
  const base = name.offset;
  const count = buf.readUInt16BE(base + 2);
  const strings = base + buf.readUInt16BE(base + 4);
  const found: { rank: number; text: string }[] = [];
  for (let i = 0; i < count; i++) {
    const r = base + 6 + i * 12;
    const [platform, , language, nameId, length, offset] = [0, 2, 4, 6, 8, 10].map((o) => buf.readUInt16BE(r + o)) as [number, number, number, number, number, number];
    if (nameId !== NAME_ID_FAMILY) continue;
    const raw = buf.subarray(strings + offset, strings + offset + length);
    if (platform === 3) found.push({ rank: language === 0x409 ? 0 : 1, text: raw.length % 2 === 0 ? Buffer.from(raw).swap16().toString('utf16le') : '' });
    else if (platform === 1) found.push({ rank: 2, text: raw.toString('latin1') });
  }
  found.sort((a, b) => a.rank - b.rank);
  return found[0]?.text ?? '';
}

/** The family names of a collection's faces, in face order. */
export function collectionFamilies(buf: Buffer): string[] {
  return faceOffsets(buf).map((at) => familyName(buf, readDirectory(buf, at)));
}

const pad4 = (n: number) => (n + 3) & ~3;

function checksum(buf: Buffer, start: number, length: number): number {
  let sum = 0;
  for (let i = start; i < start + length; i += 4) sum = (sum + buf.readUInt32BE(i)) >>> 0;
  return sum;
}

/**
 * The face named `family` (the first of `families` found) as a standalone OpenType file, or null if the collection
 * has none of them. Table data is copied unchanged; offsets and the whole-file checksum are rewritten.
 */
export function extractCollectionFace(buf: Buffer, families: readonly string[]): Buffer | null {
  const dirs = faceOffsets(buf).map((at) => readDirectory(buf, at));
  const names = dirs.map((d) => familyName(buf, d));
  const index = families.map((f) => names.indexOf(f)).find((i) => i >= 0);
  if (index === undefined) return null;
  const dir = dirs[index]!;
  const n = dir.tables.length;
  const headerSize = 12 + n * 16;
  const size = headerSize + dir.tables.reduce((s, t) => s + pad4(t.length), 0);
  const out = Buffer.alloc(size); // zero-filled, so table padding is zero as the format wants
  const log2 = Math.floor(Math.log2(n));
  out.writeUInt32BE(dir.sfntVersion, 0);
  out.writeUInt16BE(n, 4);
  out.writeUInt16BE(2 ** log2 * 16, 6);
  out.writeUInt16BE(log2, 8);
  out.writeUInt16BE(n * 16 - 2 ** log2 * 16, 10);
  let at = headerSize;
  let headAt = -1;
  dir.tables.forEach((t, i) => {
    const r = 12 + i * 16;
    out.writeUInt32BE(t.tag, r);
    out.writeUInt32BE(t.checksum, r + 4);
    out.writeUInt32BE(at, r + 8);
    out.writeUInt32BE(t.length, r + 12);
    buf.copy(out, at, t.offset, t.offset + t.length);
    if (t.tag === HEAD_TAG) headAt = at;
    at += pad4(t.length);
  });
  if (headAt >= 0) {
    out.writeUInt32BE(0, headAt + 8);
    out.writeUInt32BE((CHECKSUM_MAGIC - checksum(out, 0, size)) >>> 0, headAt + 8);
  }
  return out;
}
