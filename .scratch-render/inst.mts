import { installFonts, fontReport } from '../src/worker/render/fonts.js';
const t = performance.now();
console.log(JSON.stringify(await installFonts('/tmp/lmxfonts'), null, 1), performance.now() - t);
console.log(fontReport('/tmp/lmxfonts'));
