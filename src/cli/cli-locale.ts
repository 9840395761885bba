// The language of the `larkmux` command's own lines: the terminal's message locale, as every POSIX tool reads it.
import { localeFromLanguageTag, type Locale } from '../shared/i18n.js';

/**
 * LC_ALL, else LC_MESSAGES, else LANG (the first one set and non-empty decides, as setlocale(3) does); zh, zh_CN,
 * zh_TW.UTF-8 and the like → zh-CN (the one Chinese catalogue); C, POSIX, en_* and anything else → en.
 */
export function cliLocale(env: NodeJS.ProcessEnv): Locale {
  const tag = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((v) => v !== undefined && v.trim() !== '');
  return localeFromLanguageTag(tag);
}
