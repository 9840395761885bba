// The one message catalogue: everything a chat or browser user reads is looked up here by key, per locale.
import { z } from 'zod';
import { en } from './messages/en.js';
import { zhCN } from './messages/zh-CN.js';

export const LOCALES = ['zh-CN', 'en'] as const;
export const LocaleSchema = z.enum(LOCALES);
export type Locale = z.infer<typeof LocaleSchema>;

/** A message id; English is the reference catalogue, every other locale must have the same keys (compile-time and test). */
export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
export type MessageParams = Readonly<Record<string, string | number>>;

const CATALOGUES: Record<Locale, Messages> = { en, 'zh-CN': zhCN };

/** The catalogue of a locale (tests compare key sets; the web page bundles one of these). */
export function catalogue(locale: Locale): Messages {
  return CATALOGUES[locale];
}

/**
 * The text of `key` in `locale`, with `{name}` placeholders replaced by `params`. A placeholder without a value is
 * left as written so a missing parameter shows up in tests rather than as an empty gap.
 */
export function t(locale: Locale, key: MessageKey, params?: MessageParams): string {
  const template = CATALOGUES[locale][key] ?? en[key];
  if (!params) return template;
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** Is `s` a catalogue key (e.g. a zod issue message written as a key, to be translated where it is shown)? */
export function isMessageKey(s: string): s is MessageKey {
  return Object.hasOwn(en, s);
}

/** A translator bound to one locale, for code that speaks to one bot's users. */
export type Translate = (key: MessageKey, params?: MessageParams) => string;
export function translator(locale: Locale): Translate {
  return (key, params) => t(locale, key, params);
}

/**
 * The locale a bot speaks when its config names none: Lark (the international brand) → English; Feishu and private
 * deployments (mostly mainland China) → Simplified Chinese.
 */
export function defaultLocale(domain: string): Locale {
  return domain === 'lark' || /larksuite\.com/i.test(domain) ? 'en' : 'zh-CN';
}

/** The cookie through which the web proxy tells the terminal page its bot's locale (src/web reads it). */
export const LOCALE_COOKIE_NAME = 'larkmux_lang';

/** The locale a language tag asks for (Accept-Language, navigator.language, or a POSIX LANG): zh* → zh-CN, else en. */
export function localeFromLanguageTag(tag: string | undefined | null): Locale {
  // `zh` not followed by a letter or digit: BCP 47 (zh-CN, zh;q=0.9) and POSIX (zh_CN.UTF-8, zh@…) alike.
  return tag && /^\s*zh(?![a-z0-9])/i.test(tag) ? 'zh-CN' : 'en';
}

/**
 * The language of the console page and of everything the console bot writes there: `console.locale` when set, else the
 * browser's (its first Accept-Language tag or navigator.language), so one page speaks one language.
 */
export function consoleLocale(configured: Locale | undefined, browserLanguage: string | undefined | null): Locale {
  return configured ?? localeFromLanguageTag(browserLanguage);
}

/** `key.one` for a count of 1, else `key.other` (English plurals; Chinese has the same text in both). */
export function plural<K extends string>(key: K, count: number): `${K}.one` | `${K}.other` {
  return count === 1 ? `${key}.one` : `${key}.other`;
}
