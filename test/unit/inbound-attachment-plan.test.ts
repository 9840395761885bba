// Inbound attachments: folder per day, safe names, picture types (what is typed: typed-prompt.test.ts).
import { describe, expect, it } from 'vitest';
import { isInertPath, storedName, uploadFolder } from '../../src/daemon/inbound/attachment-plan.js';
import { INBOUND_LIMITS, inboundLimitsOf } from '../../src/daemon/im/media-limits.js';
import { imageExtension } from '../../src/shared/image-kind.js';

describe('attachment plan', () => {
  it('keeps one folder per day', () => {
    expect(uploadFolder(new Date('2026-12-01T23:59:00Z'))).toBe('.larkmux/uploads/2026-12-01');
  });
  it.each([
    ['report.pdf', 'p.pdf'],
    ['../../etc/passwd', 'p.bin'],
    ['..\\evil.exe', 'p.exe'],
    ['.bashrc', 'p.bin'],
    ['a\u0000b\u001b[31m.txt', 'p.txt'],
    ['r$(touch PWN2)x.txt', 'p.txt'],
    ['`touch PWN3`.sh', 'p.sh'],
    ['x.$(id)', 'p.bin'],
    ['it\'s "a"\nname with spaces.tar.gz', 'p.gz'],
    ['notes 笔记.文本', 'p.bin'],
    [undefined, 'p.bin'],
    ['', 'p.bin'],
  ])('stores %j as %j (a generated name; a plain extension kept)', (name, expected) => {
    expect(storedName('p', name, 'bin')).toBe(expected);
    expect(isInertPath(`.larkmux/uploads/2026-12-03/${storedName('120000-a1b2c3', name, 'bin')}`)).toBe(true);
  });
  it.each([
    ['.larkmux/uploads/2026-12-03/120000-a1b2c3.txt', true],
    ['a b', false],
    ['$(x)', false],
    ['`x`', false],
    ['-rf', false],
    ["a'b", false],
  ])('%j is inert when typed: %s', (path, inert) => {
    expect(isInertPath(path)).toBe(inert);
  });
  it.each([
    ['89504e470d0a1a0a', 'png'],
    ['ffd8ffe0', 'jpg'],
    ['474946383961', 'gif'],
    ['524946460000000057454250', 'webp'],
    ['00000000', 'img'],
  ])('%s is %s', (hex, ext) => {
    expect(imageExtension(Buffer.from(hex, 'hex'))).toBe(ext);
  });
});

describe('inboundLimitsOf', () => {
  it('MiB in config become bytes; no config keeps the defaults', () => {
    expect(inboundLimitsOf(undefined)).toEqual(INBOUND_LIMITS);
    expect(inboundLimitsOf({ imageWaitSeconds: 60, maxFiles: 20, maxMessageMiB: 20, maxFileMiB: 100 })).toEqual(INBOUND_LIMITS);
    expect(inboundLimitsOf({ imageWaitSeconds: 0, maxFiles: 3, maxMessageMiB: 0.5 + 1, maxFileMiB: 2 })).toEqual({ maxFiles: 3, maxMessageBytes: 1.5 * 1024 * 1024, maxFileBytes: 2 * 1024 * 1024 });
  });
});
