// What kind of picture some bytes are, told by their first bytes — never by a name a sender chose. One table for the
// stored name of an upload (its extension) and for what the console may show inline (its content type).

interface ImageSignature {
  ext: string;
  type: string;
  /** Any one of these byte prefixes (hex) marks the kind… */
  starts: readonly string[];
  /** …and, where given, these bytes at offset 8 too (RIFF is also WAV and AVI: WebP says so at byte 8). */
  at8?: string;
}

const IMAGE_SIGNATURES: readonly ImageSignature[] = [
  { ext: 'png', type: 'image/png', starts: ['89504e470d0a1a0a'] },
  { ext: 'jpg', type: 'image/jpeg', starts: ['ffd8ff'] },
  { ext: 'gif', type: 'image/gif', starts: ['474946383761', '474946383961'] },
  { ext: 'webp', type: 'image/webp', starts: ['52494646'], at8: '57454250' },
  { ext: 'bmp', type: 'image/bmp', starts: ['424d'] },
];

function hexOf(bytes: Uint8Array, from: number, to: number): string {
  let out = '';
  for (const b of bytes.subarray(from, to)) out += b.toString(16).padStart(2, '0');
  return out;
}

/** The picture kind of `bytes`, or null when they are not one of the pictures every browser and Feishu show. */
export function imageKind(bytes: Uint8Array): { ext: string; type: string } | null {
  const head = hexOf(bytes, 0, 12);
  const sig = IMAGE_SIGNATURES.find((s) => s.starts.some((p) => head.startsWith(p)) && (s.at8 === undefined || head.slice(16, 24) === s.at8));
  return sig ? { ext: sig.ext, type: sig.type } : null;
}

/** A picture's extension from its first bytes (the platform gives no name for pictures); `img` when not a known kind. */
export function imageExtension(bytes: Uint8Array): string {
  return imageKind(bytes)?.ext ?? 'img';
}
