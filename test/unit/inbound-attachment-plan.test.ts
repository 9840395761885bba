// Inbound attachments: folder per day, safe names, picture types (what is typed: typed-prompt.test.ts).
import { describe, expect, it } from 'vitest';
import { INBOUND_LIMITS, imageExtension, inboundLimitsOf, storedName, uploadFolder } from '../../src/daemon/inbound/attachment-plan.js';

describe('attachment plan', () => {
  it('keeps one folder per day', () => {
    expect(uploadFolder(new Date('2026-12-01T23:59:00Z'))).toBe('.larkmux/uploads/2026-12-01');
  });
  it.each([
    ['report.pdf', 'p-report.pdf'],
    ['../../etc/passwd', 'p-passwd'],
    ['..\\evil.exe', 'p-evil.exe'],
    ['.bashrc', 'p-bashrc'],
    ['a\u0000b\u001b[31m.txt', 'p-ab[31m.txt'],
    [undefined, 'p-attachment.bin'],
    ['', 'p-attachment.bin'],
  ])('stores %j as %j', (name, expected) => {
    expect(storedName('p', name, 'bin')).toBe(expected);
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
