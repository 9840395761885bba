// Reaching the console and web terminal of a server (issue 32 item 9): the README's quick start and the operations
// guide give the `ssh -L` forward, on the port the daemon listens on by default.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/shared/config.js';
import { ROOT } from '../support/larkmux-cli.js';

const port = ConfigSchema.parse({}).web.port;
const hint = `ssh -L ${port}:127.0.0.1:${port}`;

describe('the ssh forward for a server', () => {
  it.each(['README.md', join('docs', 'operations.md')])('%s gives it next to the console link', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const at = text.indexOf(hint);
    expect(at, `${file} should contain "${hint}"`).toBeGreaterThanOrEqual(0);
    // Next to where the console link is described, not somewhere unrelated.
    const near = text.slice(Math.max(0, at - 1500), at + 1500);
    expect(near).toContain('/console/');
  });
});
