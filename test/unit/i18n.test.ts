import { describe, expect, it } from 'vitest';
import { LOCALES, catalogue, consoleLocale, defaultLocale, localeFromLanguageTag, t } from '../../src/shared/i18n.js';

describe('message catalogue', () => {
  it('every locale has exactly the keys of the English catalogue, none empty', () => {
    const reference = Object.keys(catalogue('en')).sort();
    for (const locale of LOCALES) {
      const messages = catalogue(locale);
      expect(Object.keys(messages).sort(), locale).toEqual(reference);
      for (const [key, text] of Object.entries(messages)) expect(text.trim().length, `${locale} ${key}`).toBeGreaterThan(0);
    }
  });

  it('every locale uses the same placeholders as English for each key', () => {
    const names = (s: string) => [...s.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]).sort();
    const en = catalogue('en');
    for (const locale of LOCALES) {
      for (const [key, text] of Object.entries(catalogue(locale))) expect(names(text), `${locale} ${key}`).toEqual(names(en[key as keyof typeof en]));
    }
  });

  it.each([
    ['feishu', 'zh-CN'],
    ['lark', 'en'],
    ['https://open.larksuite.com', 'en'],
    ['http://127.0.0.1:9000', 'zh-CN'],
  ] as const)('defaultLocale(%s) = %s', (domain, want) => {
    expect(defaultLocale(domain)).toBe(want);
  });

  it.each([
    ['zh-CN,zh;q=0.9', 'zh-CN'],
    ['zh-TW', 'zh-CN'],
    ['en-US,en;q=0.8', 'en'],
    [undefined, 'en'],
  ] as const)('localeFromLanguageTag(%s) = %s', (tag, want) => {
    expect(localeFromLanguageTag(tag)).toBe(want);
  });

  it.each([
    // console.locale unset: the browser's first language decides (Accept-Language or navigator.languages[0]).
    [undefined, 'en-US,en;q=0.9,zh-CN;q=0.8', 'en'],
    [undefined, 'zh-CN,zh;q=0.9,en;q=0.8', 'zh-CN'],
    [undefined, 'zh-Hant-TW', 'zh-CN'],
    [undefined, 'fr-FR', 'en'],
    [undefined, undefined, 'en'],
    [undefined, '', 'en'],
    // console.locale set: it wins over any browser.
    ['zh-CN', 'en-US', 'zh-CN'],
    ['en', 'zh-CN,zh;q=0.9', 'en'],
  ] as const)('consoleLocale(%s, %s) = %s', (configured, browser, want) => {
    expect(consoleLocale(configured, browser)).toBe(want);
  });

  it('fills parameters and leaves unknown placeholders visible', () => {
    expect(t('en', 'common.larkmux')).toBe('larkmux');
  });
});
