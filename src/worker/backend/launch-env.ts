// Which per-bot environment variables may reach a CLI: larkmux's own and tmux's are refused, with a warning.
import { ENV_NAME, isReservedEnvKey } from '../../shared/env-policy.js';


export interface FilteredEnv {
  env: Record<string, string>;
  /** Refused keys (names only: values may be secrets). */
  refused: string[];
  warnings: string[];
}

/** Splits a bot's `env` into what the CLI gets and what is refused; also refuses names tmux cannot carry. */
export function filterLaunchEnv(env: Readonly<Record<string, string>>): FilteredEnv {
  const out: Record<string, string> = {};
  const refused: string[] = [];
  const warnings: string[] = [];
  for (const [key, value] of Object.entries(env)) {
    if (isReservedEnvKey(key)) {
      refused.push(key);
      warnings.push(`env ${key} is reserved for larkmux/tmux and was not passed to the CLI`);
    } else if (!ENV_NAME.test(key)) {
      refused.push(key);
      warnings.push(`env name ${JSON.stringify(key)} is not a valid variable name and was not passed to the CLI`);
    } else {
      out[key] = value;
    }
  }
  return { env: out, refused, warnings };
}
