// `larkmux fonts install|status`: prepares the screenshot fonts in LARKMUX_HOME/fonts offline, or shows which file serves each tier.
import { EXIT, type CliCommand } from '../types.js';

/** The renderer's font module pulls in @napi-rs/canvas (~100 ms, +30 MB): loaded only when this command runs. */
const fontsModule = () => import('../../worker/render/fonts.js');

export const fonts: CliCommand = {
  name: 'fonts',
  summary: 'Prepare the screenshot fonts (install) or show them (status)',
  params: '<install|status>',
  flags: [{ name: 'json', description: 'Print machine-readable JSON' }],
  async run({ args, flags, paths, cmd, out, err }) {
    const [sub, ...extra] = args;
    if ((sub !== 'install' && sub !== 'status') || extra.length > 0) {
      err(`usage: ${cmd} fonts <install|status> [--json]`);
      return EXIT.usage;
    }
    const { fontReport, installFonts } = await fontsModule();
    if (sub === 'install') {
      const res = await installFonts(paths.home);
      const tiers = fontReport(paths.home);
      if (flags.json) {
        out(JSON.stringify({ ...res, tiers }, null, 2));
        return res.ok ? EXIT.ok : EXIT.failure;
      }
      for (const a of res.actions) out(a);
      for (const p of res.problems) err(`${p.tier}: not prepared${p.note ? ` (${p.note})` : ''}; fix: ${p.fix ?? `see ${cmd} doctor`}`);
      out(res.ok ? `fonts ready in ${res.dir}` : `some fonts are missing in ${res.dir}; apply the fixes above and run ${cmd} fonts install again`);
      return res.ok ? EXIT.ok : EXIT.failure;
    }
    const tiers = fontReport(paths.home);
    if (flags.json) out(JSON.stringify(tiers, null, 2));
    else {
      for (const t of tiers) {
        out(`${t.ok ? 'OK  ' : 'WARN'} ${t.tier.padEnd(8)} ${t.file ?? '(none)'}${t.note ? ` (${t.note})` : ''}${t.fix ? `\n     fix: ${t.fix}` : ''}`);
      }
    }
    // A report: WARN lines carry their fix, but nothing failed (install is the command that can fail).
    return EXIT.ok;
  },
};
