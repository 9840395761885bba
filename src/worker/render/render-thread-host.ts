// The worker's own renderer: the render process (render-thread.ts, next to this file) run by the platform host. Used
// when the daemon does not render for the worker (tests, tools); see src/platform/render-process.ts.
import { fileURLToPath } from 'node:url';
import { RenderProcessHost } from '../../platform/render-process.js';
import type { LoadedFonts } from './fonts.js';

/** The render process's entry beside this module: .ts under tsx (tests), .js when built. */
export function renderEntry(): string {
  const self = import.meta.url;
  return fileURLToPath(new URL(self.endsWith('.ts') ? './render-thread.ts' : './render-thread.js', self));
}

/** A render process for this worker alone (started on demand, ended when idle). */
export class RenderThread extends RenderProcessHost<LoadedFonts> {
  constructor(home: string, idleReleaseMs?: number, onLifecycle?: (event: 'started' | 'released') => void) {
    super({ entry: renderEntry(), home, ...(idleReleaseMs !== undefined ? { idleReleaseMs } : {}), ...(onLifecycle ? { onLifecycle } : {}) });
  }
}
