import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, forgetSecret, registerSecret, scrubSecrets } from '../../src/platform/log.js';

const SECRET = 'app-secret-ZX81-never-in-logs';

describe('log redaction', () => {
  const dirs: string[] = [];
  afterEach(() => {
    forgetSecret(SECRET);
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('masks secret keys and registered secret values anywhere in a log line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lmx-log-'));
    dirs.push(dir);
    const file = join(dir, 'l.log');
    registerSecret(SECRET);
    const log = createLogger({ file });
    log.info({ appSecret: 'other-secret-1', bot: { token: 't-abcdef' }, note: `value ${SECRET} inside` }, `message with ${SECRET}`);
    log.error({ err: new Error(`request failed for ${SECRET}`) }, 'failure');
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('other-secret-1');
    expect(text).not.toContain('t-abcdef');
    expect(text).toContain('[redacted]');
    expect(text).toContain('message with');
    expect(scrubSecrets(`x${SECRET}y`)).toBe('x[redacted]y');
  });
});
