// A throwaway LARKMUX_HOME per test, removed afterwards.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { larkmuxPaths, type LarkmuxPaths } from '../../src/platform/paths.js';
import { tmuxSocketName } from '../../src/shared/tmux-socket.js';
import { registerTestTmuxSocket } from './tmux-registry.js';

export interface TestHome {
  dir: string;
  paths: LarkmuxPaths;
  env: NodeJS.ProcessEnv;
  writeConfig(config: unknown): void;
  cleanup(): void;
}

function withoutLocale(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { LC_ALL: _all, LC_MESSAGES: _messages, LANGUAGE: _language, ...rest } = env;
  return rest;
}

export function makeTestHome(prefix = 'lmx-home-'): TestHome {
  // Short paths: unix socket paths must stay under ~100 bytes.
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const paths = larkmuxPaths(dir);
  // A daemon of this home with no tmux.socket configured starts its server on the name the home derives.
  registerTestTmuxSocket(tmuxSocketName(null, dir));
  return {
    dir,
    paths,
    // English unless a test asks otherwise: `larkmux` follows a zh_* LANG/LC_ALL/LC_MESSAGES, and most tests read its
    // English lines. LC_ALL/LC_MESSAGES are dropped rather than set, so a test setting LANG alone still decides.
    env: { ...withoutLocale(process.env), LANG: 'C.UTF-8', LARKMUX_HOME: dir },
    writeConfig(config: unknown) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(paths.config, typeof config === 'string' ? config : JSON.stringify(config, null, 2));
    },
    cleanup() {
      if (!process.env.LMX_KEEP_HOME) rmSync(dir, { recursive: true, force: true });
    },
  };
}
