// A throwaway LARKMUX_HOME per test, removed afterwards.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { larkmuxPaths, type LarkmuxPaths } from '../../src/platform/paths.js';

export interface TestHome {
  dir: string;
  paths: LarkmuxPaths;
  env: NodeJS.ProcessEnv;
  writeConfig(config: unknown): void;
  cleanup(): void;
}

export function makeTestHome(prefix = 'lmx-home-'): TestHome {
  // Short paths: unix socket paths must stay under ~100 bytes.
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const paths = larkmuxPaths(dir);
  return {
    dir,
    paths,
    env: { ...process.env, LARKMUX_HOME: dir },
    writeConfig(config: unknown) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(paths.config, typeof config === 'string' ? config : JSON.stringify(config, null, 2));
    },
    cleanup() {
      if (!process.env.LMX_KEEP_HOME) rmSync(dir, { recursive: true, force: true });
    },
  };
}
