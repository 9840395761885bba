// The one place that maps a configured CLI to its adapter: an exhaustive switch, so a new CLI is a local change.
import type { CliSpec } from '../../shared/config.js';
import { claudeCodeAdapter } from './claude-code.js';
import { codexAdapter } from './codex.js';
import { customAdapter } from './custom.js';
import { geminiAdapter } from './gemini.js';
import { shellAdapter } from './shell.js';
import type { AdapterResult, CliId } from './types.js';

export function cliIdOf(spec: CliSpec): CliId {
  return typeof spec === 'string' ? spec : 'custom';
}

/** Adding a CLI: add its id to CLI_IDS (shared/config.ts), write `<id>.ts`, add a case here; tsc flags the rest. */
export function adapterFor(spec: CliSpec): AdapterResult {
  if (typeof spec !== 'string') return customAdapter(spec);
  switch (spec) {
    case 'claude-code':
      return { ok: true, adapter: claudeCodeAdapter };
    case 'codex':
      return { ok: true, adapter: codexAdapter };
    case 'gemini':
      return { ok: true, adapter: geminiAdapter };
    case 'shell':
      return { ok: true, adapter: shellAdapter };
    default: {
      const unknown: never = spec;
      throw new Error(`no adapter for CLI ${String(unknown)}`);
    }
  }
}
