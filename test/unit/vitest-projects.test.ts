// Issue 31 item 18: the real-CLI tests run one file at a time (README, vitest.config.ts). vitest 4 reads a project's
// file parallelism from the project's own resolved config (its `maxWorkers`; the command line's `--maxWorkers` is not
// passed on to projects), so that resolved value is what is checked here, as `npm test` and a bare `npx vitest run`
// resolve it.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createVitest } from 'vitest/node';
import { ROOT } from '../support/larkmux-cli.js';

async function resolvedProjects(cli: { project?: string[]; maxWorkers?: number }): Promise<Map<string, number>> {
  const vitest = await createVitest('test', { config: join(ROOT, 'vitest.config.ts'), root: ROOT, run: true, watch: false, ...cli });
  try {
    return new Map(vitest.projects.map((p) => [p.name, p.config.maxWorkers]));
  } finally {
    await vitest.close();
  }
}

describe('vitest projects', () => {
  it.each([
    ['as `npm test` runs it (scripts/test.mjs)', { project: ['real-clis'] }],
    ['with --maxWorkers 2 on the command line', { project: ['real-clis'], maxWorkers: 2 }],
    ['in a run of every project (`npx vitest run`)', {}],
  ])('the real-CLI project runs one file at a time %s', async (_name, cli) => {
    expect((await resolvedProjects(cli)).get('real-clis')).toBe(1);
  }, 60_000);

  it('the main project keeps its two workers', async () => {
    expect((await resolvedProjects({ project: ['main'] })).get('main')).toBe(2);
  }, 60_000);
});
