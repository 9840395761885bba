import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configReference } from '../../src/shared/config-docs.js';
import { ROOT } from '../support/larkmux-cli.js';

describe('docs/configuration.md', () => {
  it('is the table generated from the schema (run `npx tsx scripts/gen-config-docs.ts` after changing config.ts)', () => {
    expect(readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8')).toBe(configReference());
  });
});
