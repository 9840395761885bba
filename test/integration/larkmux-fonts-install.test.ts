// `larkmux fonts install|status` and the doctor's font lines, run from source in a fresh LARKMUX_HOME.
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestHome, type TestHome } from '../support/home.js';
import { runLarkmux } from '../support/larkmux-cli.js';

interface DoctorLine { level: string; label: string; detail: string; fix?: string }

let home: TestHome;
beforeEach(() => {
  home = makeTestHome('lmx-fonts-');
});
afterEach(() => home.cleanup());

const fontLines = (stdout: string) => (JSON.parse(stdout) as DoctorLine[]).filter((l) => l.label.startsWith('font '));

describe('larkmux fonts', () => {
  it('before install the doctor serves CJK from the system .ttc in Simplified Chinese forms (the SC face is taken out of it on the first screenshot; no fonts step needed)', async () => {
    const r = await runLarkmux(['doctor', '--json'], home.env);
    const lines = fontLines(r.stdout);
    expect(lines.map((l) => l.label)).toEqual(['font latin', 'font symbols', 'font cjk', 'font emoji']);
    const cjk = lines.find((l) => l.label === 'font cjk')!;
    expect(cjk.level).toBe('OK');
    expect(cjk.detail).toMatch(/NotoSansCJK-Regular\.ttc, Simplified Chinese/);
    expect(cjk.fix).toBeUndefined();
  });

  it('install extracts the Simplified Chinese face into LARKMUX_HOME/fonts and the doctor then serves CJK from it', async () => {
    const install = await runLarkmux(['fonts', 'install'], home.env, 180_000);
    expect(install.stderr).toBe('');
    expect(install.code).toBe(0);
    const sc = join(home.dir, 'fonts', 'NotoSansMonoCJKsc-Regular.otf');
    expect(install.stdout).toContain(`extracted ${sc}`);
    expect(statSync(sc).size).toBeGreaterThan(1_000_000);
    // One CJK weight: bold hanzi are emboldened from Regular (fonts.ts), so no second 16 MB face is copied out.
    expect(existsSync(join(home.dir, 'fonts', 'NotoSansMonoCJKsc-Bold.otf'))).toBe(false);

    const doctor = await runLarkmux(['doctor', '--json'], home.env);
    const cjk = fontLines(doctor.stdout).find((l) => l.label === 'font cjk')!;
    expect(cjk).toMatchObject({ level: 'OK' });
    expect(cjk.detail.startsWith(sc)).toBe(true);
    expect(cjk.fix).toBeUndefined();
    const latin = fontLines(doctor.stdout).find((l) => l.label === 'font latin')!;
    expect(latin.detail.startsWith(join(home.dir, 'fonts', 'JetBrainsMono-Regular.ttf'))).toBe(true);

    // A second install changes nothing; status agrees with the doctor.
    const again = await runLarkmux(['fonts', 'install'], home.env);
    expect(again.stdout).toContain(`already present ${sc}`);
    const status = await runLarkmux(['fonts', 'status', '--json'], home.env);
    expect(status.code).toBe(0);
    expect((JSON.parse(status.stdout) as { tier: string; file: string }[]).find((t) => t.tier === 'cjk')!.file).toBe(sc);
  });

  it('install deletes the Bold CJK face an older larkmux copied out, and says so', async () => {
    const bold = join(home.dir, 'fonts', 'NotoSansMonoCJKsc-Bold.otf');
    mkdirSync(join(home.dir, 'fonts'), { recursive: true });
    writeFileSync(bold, Buffer.alloc(64 * 1024, 1));
    const install = await runLarkmux(['fonts', 'install'], home.env, 180_000);
    expect(install.code).toBe(0);
    expect(install.stdout).toContain(`removed ${bold}`);
    expect(existsSync(bold)).toBe(false);
    expect(existsSync(join(home.dir, 'fonts', 'NotoSansMonoCJKsc-Regular.otf'))).toBe(true);
  });

  it('an unknown subcommand is a usage error', async () => {
    const r = await runLarkmux(['fonts', 'frobnicate'], home.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('larkmux fonts <install|status>');
  });
});
