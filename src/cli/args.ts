// Parses `larkmux <command> [flags] [args]` against the command's flag table; unknown flags are usage errors.
import type { FlagSpec } from './types.js';

export type ParsedArgs = { ok: true; args: string[]; flags: Record<string, string | boolean> } | { ok: false; error: string };

export function parseArgs(argv: readonly string[], specs: readonly FlagSpec[]): ParsedArgs {
  const flags: Record<string, string | boolean> = {};
  const args: string[] = [];
  const byLong = new Map(specs.map((s) => [s.name, s]));
  const byShort = new Map(specs.filter((s) => s.short).map((s) => [s.short as string, s]));
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') {
      args.push(...argv.slice(i + 1));
      break;
    }
    let spec: FlagSpec | undefined;
    let inline: string | undefined;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      inline = eq > 0 ? a.slice(eq + 1) : undefined;
      spec = byLong.get(name);
      if (!spec) return { ok: false, error: `unknown flag --${name}` };
    } else if (a.startsWith('-') && a.length > 1) {
      spec = byShort.get(a.slice(1));
      // `-n50`: a value-taking short flag with its value attached, as tail and head accept.
      const attached = byShort.get(a.slice(1, 2));
      if (!spec && attached?.value && a.length > 2) {
        spec = attached;
        inline = a.slice(2);
      }
      if (!spec) return { ok: false, error: `unknown flag ${a}` };
    } else {
      args.push(a);
      continue;
    }
    if (spec.value) {
      const v = inline ?? argv[++i];
      if (v === undefined) return { ok: false, error: `--${spec.name} needs a value (${spec.value})` };
      flags[spec.name] = v;
    } else {
      if (inline !== undefined) return { ok: false, error: `--${spec.name} takes no value` };
      flags[spec.name] = true;
    }
  }
  return { ok: true, args, flags };
}
