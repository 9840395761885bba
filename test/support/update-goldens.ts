// Regenerates test/fixtures/golden/*.png from the screen fixtures (run by hand: npx tsx test/support/update-goldens.ts), after checking the output by eye.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installFonts } from '../../src/worker/render/fonts.js';
import { ScreenRenderer } from '../../src/worker/render/screenshot.js';
import { TmuxExecRunner } from '../../src/worker/backend/tmux-control.js';
import { GOLDEN_DIR, GOLDEN_SCREENS, loadScreen } from './reference-painter.js';

const home = mkdtempSync(join(tmpdir(), 'lmx-goldens-'));
try {
  const installed = await installFonts(home);
  if (!installed.ok) throw new Error(`fonts: ${JSON.stringify(installed.problems)}`);
  const renderer = new ScreenRenderer({ runner: new TmuxExecRunner(), home });
  mkdirSync(GOLDEN_DIR, { recursive: true });
  for (const name of GOLDEN_SCREENS) {
    const { png } = await renderer.renderScreen(loadScreen(name), 'full');
    writeFileSync(join(GOLDEN_DIR, `${name}.png`), png);
    process.stderr.write(`${name}.png ${png.length} bytes\n`);
  }
  renderer.dispose();
} finally {
  rmSync(home, { recursive: true, force: true });
}
