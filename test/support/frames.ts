// The daemon's render process for tests that build sessions by hand: started by the first screen drawn, never before.
import { defaultRenderEntry } from '../../src/daemon/workers/worker-pool.js';
import { RenderProcessHost } from '../../src/platform/render-process.js';

export function testFrames(home: string): RenderProcessHost {
  return new RenderProcessHost({ entry: defaultRenderEntry(), home });
}
