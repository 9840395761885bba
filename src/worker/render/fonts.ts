// Font discovery, registration under fixed aliases (TermMono → TermSymbols → TermCJK → TermEmoji), doctor report and offline install.
import { copyFile, mkdir, symlink } from 'node:fs/promises';
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GlobalFonts } from '@napi-rs/canvas';
import { extractCollectionFace } from './ttc-face.js';

export type FontTier = 'latin' | 'symbols' | 'cjk' | 'emoji';

export interface FontTierReport {
  tier: FontTier;
  ok: boolean;
  /** The file serving this tier (may be present while ok is false, e.g. the Japanese face of a .ttc). */
  file?: string;
  /** An exact package or command that fixes the tier. */
  fix?: string;
  note?: string;
}

export const FONT_ALIASES = { mono: 'TermMono', symbols: 'TermSymbols', cjk: 'TermCJK', emoji: 'TermEmoji' } as const;

const SYSTEM = {
  jetbrains: '/usr/share/fonts/truetype/jetbrains-mono',
  dejavu: '/usr/share/fonts/truetype/dejavu',
  notoCjk: ['/usr/share/fonts/opentype/noto', '/usr/share/fonts/noto-cjk', '/usr/share/fonts/google-noto-cjk'],
  emoji: ['/usr/share/fonts/truetype/noto', '/usr/share/fonts/noto', '/usr/share/fonts/google-noto-emoji'],
} as const;

const LATIN_FACES = ['Regular', 'Bold', 'Italic', 'BoldItalic'] as const;
/**
 * One CJK weight: bold hanzi are emboldened from Regular by the canvas library. The Bold face drew bold text from a
 * second 16 MB file, and a CJK face's file becomes resident as hanzi are drawn, up to all of it:
 * measured (bench render), 8 sessions rendering, one showing Chinese: render process 147 → 128-130 MB RSS; Latin only 113-115 → 107-110.
 */
const CJK_WEIGHTS = ['Regular'] as const;
const scFile = (w: string) => `NotoSansMonoCJKsc-${w}.otf`;
/** Faces larkmux once copied into LARKMUX_HOME/fonts and no longer reads (the Bold CJK face: 16 MB of disk). */
const RETIRED_FILES = [scFile('Bold')] as const;
const EMOJI_FILE = 'NotoColorEmoji.ttf';

const PACKAGES = {
  latin: 'apt-get install fonts-jetbrains-mono',
  symbols: 'apt-get install fonts-dejavu-core',
  cjk: 'apt-get install fonts-noto-cjk',
  emoji: 'apt-get install fonts-noto-color-emoji',
  install: 'larkmux fonts install',
} as const;

/** The faces to copy out of NotoSansCJK-*.ttc, best first (the monospaced SC face matches the terminal grid). */
const SC_FAMILIES = ['Noto Sans Mono CJK SC', 'Noto Sans CJK SC'] as const;

function firstExisting(paths: string[]): string | undefined {
  return paths.find((p) => existsSync(p));
}

interface ResolvedFonts {
  latin: string[]; // files for TermMono (regular first)
  symbols: string[];
  cjk: string[];
  emoji: string[];
  report: FontTierReport[];
}

function resolveFonts(home: string): ResolvedFonts {
  const dir = join(home, 'fonts');
  const report: FontTierReport[] = [];

  const latin = LATIN_FACES.map((f) => firstExisting([join(dir, `JetBrainsMono-${f}.ttf`), join(SYSTEM.jetbrains, `JetBrainsMono-${f}.ttf`)])).filter(
    (p): p is string => p !== undefined,
  );
  const dejavuMono = firstExisting([join(dir, 'DejaVuSansMono.ttf'), join(SYSTEM.dejavu, 'DejaVuSansMono.ttf')]);
  if (latin.length > 0) report.push({ tier: 'latin', ok: true, file: latin[0] });
  else if (dejavuMono) report.push({ tier: 'latin', ok: false, file: dejavuMono, fix: PACKAGES.latin, note: 'DejaVu Sans Mono stands in (8.43 px cells)' });
  else report.push({ tier: 'latin', ok: false, fix: PACKAGES.latin });

  const symbols = [
    dejavuMono,
    firstExisting([join(dir, 'DejaVuSansMono-Bold.ttf'), join(SYSTEM.dejavu, 'DejaVuSansMono-Bold.ttf')]),
    firstExisting([join(dir, 'DejaVuSans.ttf'), join(SYSTEM.dejavu, 'DejaVuSans.ttf')]),
  ].filter((p): p is string => p !== undefined);
  report.push(symbols.length > 0 ? { tier: 'symbols', ok: true, file: symbols[0] } : { tier: 'symbols', ok: false, fix: PACKAGES.symbols });

  const cjkSc = CJK_WEIGHTS.map((w) =>
    firstExisting([join(dir, scFile(w)), ...SYSTEM.notoCjk.flatMap((d) => [join(d, scFile(w)), join(d, `NotoSansCJKsc-${w}.otf`)])]),
  ).filter((p): p is string => p !== undefined);
  const ttc = firstExisting(SYSTEM.notoCjk.map((d) => join(d, 'NotoSansCJK-Regular.ttc')));
  let cjk: string[] = cjkSc;
  if (cjkSc.length > 0) report.push({ tier: 'cjk', ok: true, file: cjkSc[0] });
  else if (ttc) {
    // registerFromPath() on a .ttc registers only face 0, the Japanese one; loadFonts() copies the SC face out first
    // (prepareScFaces), so this is only what a read-only view (the doctor) sees before the first screenshot.
    cjk = [ttc];
    report.push({ tier: 'cjk', ok: true, file: ttc, note: 'the Simplified Chinese face is copied out of the .ttc on the first screenshot' });
  } else report.push({ tier: 'cjk', ok: false, fix: `${PACKAGES.cjk} && ${PACKAGES.install}` });

  const emoji = firstExisting([join(dir, EMOJI_FILE), ...SYSTEM.emoji.map((d) => join(d, EMOJI_FILE))]);
  report.push(emoji ? { tier: 'emoji', ok: true, file: emoji } : { tier: 'emoji', ok: false, fix: PACKAGES.emoji });

  return { latin: latin.length > 0 ? latin : dejavuMono ? [dejavuMono] : [], symbols, cjk, emoji: emoji ? [emoji] : [], report };
}

/** What `larkmux doctor` shows: the file serving each tier, or the exact fix. */
export function fontReport(home: string): FontTierReport[] {
  return resolveFonts(home).report;
}

export interface LoadedFonts {
  report: FontTierReport[];
  /** The registered files per alias (first load wins for the whole process: GlobalFonts is global). */
  files: Record<keyof typeof FONT_ALIASES, string[]>;
}

let loaded: LoadedFonts | null = null;

type ScFacePrep =
  | { weight: string; kind: 'present'; file: string }
  | { weight: string; kind: 'extracted'; file: string; from: string }
  /** The home is not writable: the face is registered from memory for this process only. */
  | { weight: string; kind: 'in-memory'; face: Buffer; from: string; reason: string }
  | { weight: string; kind: 'missing'; problem: FontTierReport };

/**
 * Makes sure LARKMUX_HOME/fonts holds the Simplified Chinese face, copying it out of the system's Noto Sans CJK .ttc
 * when missing (~0.1-0.3 s and 16 MB, once per home). Without this, hanzi render in Japanese forms.
 */
function prepareScFaces(home: string): ScFacePrep[] {
  const dir = join(home, 'fonts');
  return CJK_WEIGHTS.map((weight): ScFacePrep => {
    const dst = join(dir, scFile(weight));
    const present = firstExisting([dst, ...SYSTEM.notoCjk.flatMap((d) => [join(d, scFile(weight)), join(d, `NotoSansCJKsc-${weight}.otf`)])]);
    if (present) return { weight, kind: 'present', file: present };
    const ttc = firstExisting(SYSTEM.notoCjk.map((d) => join(d, `NotoSansCJK-${weight}.ttc`)));
    if (!ttc) return { weight, kind: 'missing', problem: { tier: 'cjk', ok: false, fix: PACKAGES.cjk } };
    let face: Buffer | null;
    try {
      face = extractCollectionFace(readFileSync(ttc), SC_FAMILIES);
    } catch (err) {
      return { weight, kind: 'missing', problem: { tier: 'cjk', ok: false, file: ttc, fix: PACKAGES.cjk, note: err instanceof Error ? err.message : String(err) } };
    }
    if (!face) return { weight, kind: 'missing', problem: { tier: 'cjk', ok: false, file: ttc, fix: PACKAGES.cjk, note: 'the collection has no Simplified Chinese face' } };
    // Written under a temporary name and renamed: two workers starting at once never see half a font.
    const tmp = `${dst}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 }); // may create LARKMUX_HOME itself, which holds tokens: owner only
      writeFileSync(tmp, face, { mode: 0o600 });
      renameSync(tmp, dst);
      return { weight, kind: 'extracted', file: dst, from: ttc };
    } catch (err) {
      rmSync(tmp, { force: true });
      return { weight, kind: 'in-memory', face, from: ttc, reason: err instanceof Error ? err.message : String(err) };
    }
  });
}

/**
 * Deletes the faces of RETIRED_FILES from LARKMUX_HOME/fonts, returning the files removed. Only regular files there
 * are ours (extracted by an older larkmux); a symlink is someone's choice and stays. Failures are ignored: the file is
 * unused either way.
 */
export function removeRetiredFaces(home: string): string[] {
  const removed: string[] = [];
  for (const name of RETIRED_FILES) {
    const file = join(home, 'fonts', name);
    try {
      if (!lstatSync(file).isFile()) continue;
      unlinkSync(file);
      removed.push(file);
    } catch {
      // absent, or not ours to delete: nothing to do
    }
  }
  return removed;
}

/** Registers the font chain under the fixed aliases once per process, preparing the Simplified Chinese face first. */
export function loadFonts(home: string): LoadedFonts {
  if (loaded) return loaded;
  removeRetiredFaces(home);
  const sc = prepareScFaces(home);
  const r = resolveFonts(home);
  const register = (files: string[], alias: string) => files.filter((f) => GlobalFonts.registerFromPath(f, alias) !== null);
  const inMemory = sc.filter((p) => p.kind === 'in-memory');
  const cjk = inMemory.length > 0
    ? inMemory.filter((p) => GlobalFonts.register(p.face, FONT_ALIASES.cjk) !== null).map((p) => `${p.from} (Simplified Chinese face, in memory: ${p.reason})`)
    : register(r.cjk, FONT_ALIASES.cjk);
  loaded = {
    report: r.report,
    files: {
      mono: register(r.latin, FONT_ALIASES.mono),
      symbols: register(r.symbols, FONT_ALIASES.symbols),
      cjk,
      emoji: register(r.emoji, FONT_ALIASES.emoji),
    },
  };
  return loaded;
}


export interface InstallFontsResult {
  ok: boolean;
  dir: string;
  /** What was done, one line each ("extracted …", "linked …", "already present …"). */
  actions: string[];
  problems: FontTierReport[];
}

async function linkOrCopy(src: string, dst: string): Promise<string> {
  try {
    await symlink(src, dst);
    return `linked ${dst} -> ${src}`;
  } catch {
    await copyFile(src, dst);
    return `copied ${src} to ${dst}`;
  }
}

/**
 * Prepares LARKMUX_HOME/fonts offline: extracts the Simplified Chinese face, links the Latin and emoji fonts and
 * removes the faces an older larkmux copied there and this one never reads.
 */
export async function installFonts(home: string): Promise<InstallFontsResult> {
  const dir = join(home, 'fonts');
  await mkdir(dir, { recursive: true, mode: 0o700 }); // may create LARKMUX_HOME itself, which holds tokens: owner only
  const actions: string[] = [];
  const problems: FontTierReport[] = [];

  for (const file of removeRetiredFaces(home)) actions.push(`removed ${file} (no longer used: bold hanzi are drawn from the Regular face)`);
  for (const p of prepareScFaces(home)) {
    if (p.kind === 'present') actions.push(`already present ${p.file}`);
    else if (p.kind === 'extracted') actions.push(`extracted ${p.file} from ${p.from}`);
    else if (p.kind === 'in-memory') problems.push({ tier: 'cjk', ok: false, file: p.from, fix: `make ${dir} writable`, note: p.reason });
    else problems.push(p.problem);
  }

  const links: { file: string; dirs: readonly string[]; tier: FontTier }[] = [
    ...LATIN_FACES.map((f) => ({ file: `JetBrainsMono-${f}.ttf`, dirs: [SYSTEM.jetbrains], tier: 'latin' as const })),
    { file: EMOJI_FILE, dirs: SYSTEM.emoji, tier: 'emoji' },
  ];
  for (const l of links) {
    const dst = join(dir, l.file);
    if (existsSync(dst)) {
      actions.push(`already present ${dst}`);
      continue;
    }
    const src = firstExisting(l.dirs.map((d) => join(d, l.file)));
    if (!src) {
      if (!problems.some((p) => p.tier === l.tier)) problems.push({ tier: l.tier, ok: false, fix: PACKAGES[l.tier] });
      continue;
    }
    actions.push(await linkOrCopy(src, dst));
  }
  return { ok: problems.length === 0, dir, actions, problems };
}
