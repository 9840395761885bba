// Renders hanzi whose Simplified Chinese and Japanese forms differ through the worker's real render thread, and
// crops them, for the pixel test of test/integration/render-sc-forms.test.ts. Run directly to rewrite a reference:
//   npx tsx test/support/hanzi-forms.ts <out.png>   (renders on a fresh LARKMUX_HOME with the code checked out)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RenderThread } from '../../src/worker/render/render-thread-host.js';
import { encodeRgbaPng } from '../../src/worker/render/png-writer.js';
import { decodePng } from './reference-painter.js';

/** 直 骨 次 角: the bottom stroke of 直, the inner box of 骨, the left of 次 and the middle of 角 differ between SC and JP. */
export const HANZI = '直骨次角';
/** Two 8.4 px cells per hanzi, one 18 px row. */
export const CROP = { width: Math.ceil(HANZI.length * 2 * 8.4), height: 18 } as const;

export interface Crop {
  width: number;
  height: number;
  data: Buffer;
}

/** The top-left CROP of the frame the render thread makes for a pane showing HANZI on its first row. */
export async function renderHanzi(home: string): Promise<Crop> {
  const thread = new RenderThread(home);
  try {
    // The full frame (every cell at scale 1, no margin): the crop is the glyphs themselves, as the references were made.
    const r = await thread.render({ ansi: `${HANZI}\n`, cursor: { x: 0, y: 1, visible: false }, cols: 20, rows: 2 }, 'full');
    if (!r.ok) throw new Error(`render failed: ${r.message}`);
    const img = await decodePng(r.png);
    const data = Buffer.alloc(CROP.width * CROP.height * 4);
    for (let y = 0; y < CROP.height; y++) {
      Buffer.from(img.data.buffer, img.data.byteOffset + y * img.width * 4, CROP.width * 4).copy(data, y * CROP.width * 4);
    }
    return { width: CROP.width, height: CROP.height, data };
  } finally {
    thread.dispose();
  }
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const out = process.argv[2];
  if (!out) throw new Error('usage: npx tsx test/support/hanzi-forms.ts <out.png>');
  const home = mkdtempSync(join(tmpdir(), 'lmx-hanzi-'));
  try {
    const crop = await renderHanzi(home);
    writeFileSync(out, await encodeRgbaPng(crop.data, crop.width, crop.height));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
