// `larkmux doctor`: one line per check (OK/WARN/FAIL) with the fix; exits 1 when anything FAILs.
import { readConfigFile } from '../../platform/config-file.js';
import { translator } from '../../shared/i18n.js';
import { DOCTOR_CHECKS } from '../doctor/checks.js';
import { formatDoctorLine } from '../doctor/format.js';
import type { DoctorLine } from '../doctor/types.js';
import { EXIT, type CliCommand } from '../types.js';

export const doctor: CliCommand = {
  name: 'doctor',
  summary: 'Check this machine: node, tmux, fonts, CLIs, config',
  flags: [{ name: 'json', description: 'Print machine-readable JSON' }],
  async run({ flags, paths, env, out, t }) {
    const cfg = readConfigFile(paths.config, env);
    // Labels and levels are never translated (scripts grep them); `--json` keeps the English detail and fix.
    const ctx = { paths, env, config: cfg.ok ? cfg.config : null, t: flags.json ? translator('en') : t };
    const lines: DoctorLine[] = [];
    for (const check of DOCTOR_CHECKS) {
      try {
        lines.push(...(await check(ctx)));
      } catch (err) {
        lines.push({ level: 'FAIL', label: 'doctor', detail: ctx.t('doctor.crashed', { message: (err as Error).message }) });
      }
    }
    if (flags.json) out(JSON.stringify(lines, null, 2));
    else for (const l of lines) out(formatDoctorLine(l));
    return lines.some((l) => l.level === 'FAIL') ? EXIT.failure : EXIT.ok;
  },
};
