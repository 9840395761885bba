// Adler-32 arithmetic for PNG bands deflated apart: zlib computes each band's checksum, and the image's zlib stream
// needs the checksum of all its bytes, so the bands' checksums are combined here (no pass over the pixels in JS).

const MOD = 65521;

/** The Adler-32 of nothing: a = 1, b = 0. */
export const ADLER32_EMPTY = 1;

/**
 * The Adler-32 of A followed by B, from adler(A), adler(B) and B's length. With a = 1 + Σ bytes and b = Σ of the
 * running a after each byte (both mod 65521): a(AB) = a(A) + a(B) − 1, and each byte of B adds a(A) − 1 more to b,
 * so b(AB) = b(A) + b(B) + len(B)·(a(A) − 1).
 */
export function adler32Combine(first: number, second: number, secondLength: number): number {
  const a1 = first & 0xffff;
  const b1 = first >>> 16;
  const a2 = second & 0xffff;
  const b2 = second >>> 16;
  const a = (a1 + a2 + MOD - 1) % MOD;
  // (len mod 65521) × (a1 − 1 + 65521) < 2^33: exact in a double.
  const b = (b1 + b2 + ((secondLength % MOD) * (a1 + MOD - 1)) % MOD) % MOD;
  return ((b << 16) | a) >>> 0;
}

/**
 * The plain checksum, byte by byte: for the encoder's constant segments (made once, kept) and tests; a band's rows take
 * theirs from zlib.
 */
export function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < bytes.length; i++) {
    a = (a + bytes[i]!) % MOD;
    b = (b + a) % MOD;
  }
  return ((b << 16) | a) >>> 0;
}
