// Doctor lines for the screenshot fonts: one per tier (latin, symbols, cjk, emoji) naming the serving file, or the exact fix.
import type { MessageKey } from '../../shared/i18n.js';
import type { DoctorCheck, DoctorLine } from './types.js';

/** What each tier is for (a catalogue key), shown beside the file so a user knows what a missing tier costs. */
const TIER_ROLE = {
  latin: 'doctor.font.role.latin',
  symbols: 'doctor.font.role.symbols',
  cjk: 'doctor.font.role.cjk',
  emoji: 'doctor.font.role.emoji',
} as const satisfies Record<string, MessageKey>;

export const fontsCheck: DoctorCheck = async ({ paths, t }) => {
  // Loaded lazily: the renderer's font module pulls in @napi-rs/canvas.
  const { fontReport } = await import('../../worker/render/fonts.js');
  return fontReport(paths.home).map((tier): DoctorLine => {
    const role = t(TIER_ROLE[tier.tier]);
    // Missing fonts degrade screenshots (tofu, Japanese glyph forms, wrong cell width) but nothing stops: WARN, not FAIL.
    if (tier.ok) return { level: 'OK', label: `font ${tier.tier}`, detail: t('doctor.font.ok', { file: tier.file ?? '', role }) };
    const serving = tier.file ? t('doctor.font.servedBy', { role, file: tier.file }) : t('doctor.font.none', { role });
    // The note comes from the font module as it is (English): a file name or an error, not a sentence to translate.
    return { level: 'WARN', label: `font ${tier.tier}`, detail: tier.note ? t('doctor.font.note', { text: serving, note: tier.note }) : serving, fix: tier.fix };
  });
};
