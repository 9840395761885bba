// Faces an older larkmux copied into LARKMUX_HOME/fonts and this one never reads are deleted (16 MB of disk each),
// but only regular files: a symlink there is the user's choice.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeRetiredFaces } from '../../src/worker/render/fonts.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'lmx-fonts-retired-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const bold = () => join(home, 'fonts', 'NotoSansMonoCJKsc-Bold.otf');
const regular = () => join(home, 'fonts', 'NotoSansMonoCJKsc-Regular.otf');

describe('removeRetiredFaces', () => {
  it('deletes the Bold CJK face an older larkmux extracted and keeps the Regular one', () => {
    mkdirSync(join(home, 'fonts'));
    writeFileSync(bold(), 'OTTO old bold face');
    writeFileSync(regular(), 'OTTO regular face');
    expect(removeRetiredFaces(home)).toEqual([bold()]);
    expect(existsSync(bold())).toBe(false);
    expect(existsSync(regular())).toBe(true);
    expect(removeRetiredFaces(home)).toEqual([]);
  });

  it('leaves a symlink alone, and the file it points to', () => {
    mkdirSync(join(home, 'fonts'));
    const target = join(home, 'mine.otf');
    writeFileSync(target, 'OTTO');
    symlinkSync(target, bold());
    expect(removeRetiredFaces(home)).toEqual([]);
    expect(lstatSync(bold()).isSymbolicLink()).toBe(true);
    expect(existsSync(target)).toBe(true);
  });

  it('does nothing in a home without a fonts folder', () => {
    expect(removeRetiredFaces(home)).toEqual([]);
    expect(existsSync(join(home, 'fonts'))).toBe(false);
  });
});
