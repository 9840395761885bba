// Font discovery, registration under fixed aliases (TermMono → TermSymbols → TermCJK → TermEmoji), doctor report and offline install.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, rename, rm, symlink } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { GlobalFonts } from '@napi-rs/canvas';

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
const CJK_WEIGHTS = ['Regular', 'Bold'] as const;
const scFile = (w: string) => `NotoSansMonoCJKsc-${w}.otf`;
const EMOJI_FILE = 'NotoColorEmoji.ttf';

const PACKAGES = {
  latin: 'apt-get install fonts-jetbrains-mono',
  symbols: 'apt-get install fonts-dejavu-core',
  cjk: 'apt-get install fonts-noto-cjk',
  emoji: 'apt-get install fonts-noto-color-emoji',
  fonttools: 'apt-get install python3-fonttools',
  install: 'larkmux fonts install',
} as const;

const PYTHON = '/usr/bin/python3';
/** Where Debian's python3-fonttools puts the module for /usr/bin/python3 (a cheap check for the doctor, no python spawn). */
const FONTTOOLS_MODULE = '/usr/lib/python3/dist-packages/fontTools';

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
    // registerFromPath() on a .ttc registers only face 0, the Japanese one: usable, but hanzi get Japanese forms.
    cjk = [ttc];
    // Extraction needs fontTools for the system python (installFonts runs /usr/bin/python3).
    const fix = existsSync(FONTTOOLS_MODULE) ? PACKAGES.install : `${PACKAGES.fonttools} && ${PACKAGES.install}`;
    report.push({ tier: 'cjk', ok: false, file: ttc, fix, note: 'only the Japanese face of the .ttc; run the fix to extract the Simplified Chinese face' });
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

/** Registers the font chain under the fixed aliases once per process. */
export function loadFonts(home: string): LoadedFonts {
  if (loaded) return loaded;
  const r = resolveFonts(home);
  const register = (files: string[], alias: string) => files.filter((f) => GlobalFonts.registerFromPath(f, alias) !== null);
  loaded = {
    report: r.report,
    files: {
      mono: register(r.latin, FONT_ALIASES.mono),
      symbols: register(r.symbols, FONT_ALIASES.symbols),
      cjk: register(r.cjk, FONT_ALIASES.cjk),
      emoji: register(r.emoji, FONT_ALIASES.emoji),
    },
  };
  return loaded;
}


/** Saves the face whose family is argv[3] (else argv[4]) from the collection argv[1] to argv[2]. */
const EXTRACT_SCRIPT = `
import sys
from fontTools.ttLib import TTCollection
src, dst, want, alt = sys.argv[1:5]
faces = TTCollection(src, lazy=True).fonts
def family(f):
    return f['name'].getDebugName(1) or ''
pick = next((f for f in faces if family(f) == want), None) or next((f for f in faces if family(f) == alt), None)
if pick is None:
    sys.exit('no face named ' + want + ' in ' + src)
pick.save(dst)
`;

export interface InstallFontsResult {
  ok: boolean;
  dir: string;
  /** What was done, one line each ("extracted …", "linked …", "already present …"). */
  actions: string[];
  problems: FontTierReport[];
}

function runPython(args: string[]): Promise<{ ok: true } | { ok: false; message: string }> {
  return new Promise((resolve) => {
    execFile(PYTHON, args, { timeout: 120_000 }, (err, _stdout, stderr) => resolve(err ? { ok: false, message: (stderr || err.message).trim() } : { ok: true }));
  });
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

/** Prepares LARKMUX_HOME/fonts offline: extracts the Simplified Chinese faces and links the Latin and emoji fonts. */
export async function installFonts(home: string): Promise<InstallFontsResult> {
  const dir = join(home, 'fonts');
  await mkdir(dir, { recursive: true, mode: 0o700 }); // may create LARKMUX_HOME itself, which holds tokens: owner only
  const actions: string[] = [];
  const problems: FontTierReport[] = [];

  for (const w of CJK_WEIGHTS) {
    const dst = join(dir, scFile(w));
    if (existsSync(dst)) {
      actions.push(`already present ${dst}`);
      continue;
    }
    const ttc = firstExisting(SYSTEM.notoCjk.map((d) => join(d, `NotoSansCJK-${w}.ttc`)));
    if (!ttc) {
      problems.push({ tier: 'cjk', ok: false, fix: PACKAGES.cjk });
      continue;
    }
    if (!existsSync(PYTHON)) {
      problems.push({ tier: 'cjk', ok: false, file: ttc, fix: PACKAGES.fonttools });
      continue;
    }
    const tmp = `${dst}.tmp-${process.pid}`;
    const r = await runPython(['-c', EXTRACT_SCRIPT, ttc, tmp, 'Noto Sans Mono CJK SC', 'Noto Sans CJK SC']);
    if (!r.ok) {
      await rm(tmp, { force: true });
      const missingModule = r.message.includes('No module named');
      problems.push({ tier: 'cjk', ok: false, file: ttc, fix: missingModule ? PACKAGES.fonttools : PACKAGES.install, note: r.message.split('\n').at(-1) });
      continue;
    }
    await rename(tmp, dst);
    actions.push(`extracted ${dst} from ${ttc}`);
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
