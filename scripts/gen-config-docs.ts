// Generates docs/configuration.md's settings tables from the config schema (the one source of truth).
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configReference } from '../src/shared/config-docs.js';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'configuration.md');
writeFileSync(out, configReference());
process.stderr.write(`wrote ${out}\n`);
