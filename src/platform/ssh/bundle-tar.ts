// A minimal ustar archive of flat, plainly named files: how the worker bundle crosses to a host in one ssh stream
// (`tar -x` there). Pure; regular files only, mode 0644.
import type { BundleFile } from '../bundle-manifest.js';

const BLOCK = 512;

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, size: number, mtimeS: number): Buffer {
  const h = Buffer.alloc(BLOCK, 0);
  h.write(name, 0, 100, 'utf8');
  h.write(octal(0o644, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(mtimeS, 12), 136, 'ascii');
  h.write('        ', 148, 'ascii'); // the checksum field counts as blanks while summing
  h.write('0', 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(octal(sum, 7) + ' ', 148, 'ascii');
  return h;
}

/** The archive: each file's header and bytes padded to 512, then two zero blocks. */
export function tarOf(files: readonly BundleFile[], mtimeS = Math.floor(Date.now() / 1000)): Buffer {
  const parts: Buffer[] = [];
  for (const f of files) {
    if (Buffer.byteLength(f.name) > 99) throw new Error(`file name too long for the archive: ${f.name}`);
    parts.push(header(f.name, f.bytes.length, mtimeS), f.bytes);
    const pad = (BLOCK - (f.bytes.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad, 0));
  }
  parts.push(Buffer.alloc(BLOCK * 2, 0));
  return Buffer.concat(parts);
}
