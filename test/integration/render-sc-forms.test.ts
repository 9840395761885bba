// On a fresh LARKMUX_HOME, with no `larkmux fonts install`, the worker's renderer draws hanzi in Simplified Chinese
// forms: the crop equals the SC reference and differs from the Japanese one (face 0 of the system .ttc).
// References: test/fixtures/glyphs/hanzi-{sc,jp}.png, made by test/support/hanzi-forms.ts (jp with the code before
// the SC face was prepared automatically); looked at side by side, 直 骨 次 角 show their SC and JP forms.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectionFamilies } from '../../src/worker/render/ttc-face.js';
import { countDifferentPixels, decodePng } from '../support/reference-painter.js';
import { renderHanzi } from '../support/hanzi-forms.js';

const TTC = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'glyphs');
const homes: string[] = [];
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })));

async function reference(name: string) {
  const img = await decodePng(readFileSync(join(FIXTURES, name)));
  return { ...img, data: Buffer.from(img.data) };
}

// Linux with Debian's fonts-noto-cjk (the documented setup); elsewhere there is no .ttc to take the face from.
describe.skipIf(!existsSync(TTC))('Simplified Chinese glyph forms without a fonts step', () => {
  it('the references differ where the SC and JP forms differ', async () => {
    const [sc, jp] = [await reference('hanzi-sc.png'), await reference('hanzi-jp.png')];
    expect([sc.width, sc.height]).toEqual([jp.width, jp.height]);
    expect(countDifferentPixels(sc.data, jp.data, 24)).toBeGreaterThan(40);
  });

  it('a fresh LARKMUX_HOME renders 直骨次角 like the SC reference, not like the JP one', async () => {
    const home = mkdtempSync(join(tmpdir(), 'lmx-sc-forms-'));
    homes.push(home);
    expect(existsSync(join(home, 'fonts'))).toBe(false);
    const crop = await renderHanzi(home);
    const [sc, jp] = [await reference('hanzi-sc.png'), await reference('hanzi-jp.png')];
    expect([crop.width, crop.height]).toEqual([sc.width, sc.height]);
    expect(countDifferentPixels(crop.data, sc.data, 0)).toBe(0);
    expect(countDifferentPixels(crop.data, jp.data, 24)).toBeGreaterThan(40);
    // The face was prepared in the home once, so the next worker registers it from the file.
    expect(readdirSync(join(home, 'fonts'))).toEqual(expect.arrayContaining(['NotoSansMonoCJKsc-Regular.otf']));
  });

  it('the face copied out of the collection is the Simplified Chinese one', () => {
    const families = collectionFamilies(readFileSync(TTC));
    expect(families).toContain('Noto Sans Mono CJK SC');
    expect(families[0]).toBe('Noto Sans CJK JP'); // what registerFromPath(.ttc) alone would draw with
  });
});
