// The page's language: the bot's locale from the proxy's cookie, else the browser's; all page text comes from it.
import { LOCALE_COOKIE_NAME, LOCALES, localeFromLanguageTag, translator, type Locale, type Translate } from '../shared/i18n.js';

export function pageLocale(cookie: string, browserLanguage: string | undefined): Locale {
  const fromServer = cookie.split(';').map((c) => c.trim().split('=')).find(([k]) => k === LOCALE_COOKIE_NAME)?.[1];
  return (LOCALES as readonly string[]).includes(fromServer ?? '') ? (fromServer as Locale) : localeFromLanguageTag(browserLanguage);
}

/** Puts the catalogue's text into the static page (index.html carries English only until this runs). */
export function localizePage(doc: Document, locale: Locale): Translate {
  const t = translator(locale);
  doc.documentElement.lang = locale;
  doc.title = t('web.title');
  const set = (id: string, text: string) => {
    const el = doc.getElementById(id);
    if (el) el.textContent = text;
  };
  set('banner', t('web.banner'));
  set('status-text', t('web.connecting'));
  set('reconnect', t('web.reconnect'));
  doc.getElementById('toolbar')?.setAttribute('aria-label', t('web.toolbar'));
  return t;
}
