// How a local file goes out: picture or attachment by extension and size, or a clear refusal.
import { describe, expect, it } from 'vitest';
import { mediaRefusal, planMedia } from '../../src/daemon/outbound/media-plan.js';

const limits = { imageBytes: 10, fileBytes: 30 };

describe('planMedia', () => {
  it.each([
    ['shot.png', 5, 'file', { ok: true, as: 'image' }],
    ['SHOT.JPG', 5, 'file', { ok: true, as: 'image' }],
    ['big.png', 20, 'file', { ok: true, as: 'file' }],
    ['big.png', 20, 'image', { ok: false, reason: 'too_large', limit: 10 }],
    ['report.md', 5, 'file', { ok: true, as: 'file' }],
    ['report.md', 5, 'image', { ok: false, reason: 'not_image' }],
    ['huge.bin', 31, 'file', { ok: false, reason: 'too_large', limit: 30 }],
    ['empty.txt', 0, 'file', { ok: false, reason: 'empty' }],
    ['.png', 5, 'file', { ok: true, as: 'file' }],
  ] as const)('%s (%d bytes, %s)', (path, size, wanted, expected) => {
    expect(planMedia(path, size, wanted, limits)).toEqual(expected);
  });

  it('says why in words', () => {
    expect(mediaRefusal({ ok: false, reason: 'too_large', limit: 30 * 1024 * 1024 })).toContain('30 MB');
  });
});
