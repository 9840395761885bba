// The `larkmux` command's language from the terminal's locale variables (src/cli/cli-locale.ts).
import { describe, expect, it } from 'vitest';
import { cliLocale } from '../../src/cli/cli-locale.js';

describe('cliLocale', () => {
  it.each([
    [{}, 'en'],
    [{ LANG: 'zh_CN.UTF-8' }, 'zh-CN'],
    [{ LANG: 'zh_TW.UTF-8' }, 'zh-CN'],
    [{ LANG: 'zh_HK' }, 'zh-CN'],
    [{ LANG: 'zh' }, 'zh-CN'],
    [{ LANG: 'zh_CN.GB18030@euro' }, 'zh-CN'],
    [{ LANG: 'C' }, 'en'],
    [{ LANG: 'C.UTF-8' }, 'en'],
    [{ LANG: 'POSIX' }, 'en'],
    [{ LANG: 'en_US.UTF-8' }, 'en'],
    [{ LANG: 'de_DE.UTF-8' }, 'en'],
    [{ LANG: 'zu_ZA.UTF-8' }, 'en'],
    [{ LANG: 'zhx' }, 'en'],
    // LC_ALL over LC_MESSAGES over LANG; an empty one does not count.
    [{ LC_ALL: 'C', LC_MESSAGES: 'zh_CN.UTF-8', LANG: 'zh_CN.UTF-8' }, 'en'],
    [{ LC_ALL: 'zh_CN.UTF-8', LANG: 'en_US.UTF-8' }, 'zh-CN'],
    [{ LC_MESSAGES: 'zh_CN.UTF-8', LANG: 'en_US.UTF-8' }, 'zh-CN'],
    [{ LC_MESSAGES: 'en_US.UTF-8', LANG: 'zh_CN.UTF-8' }, 'en'],
    [{ LC_ALL: '', LC_MESSAGES: '', LANG: 'zh_CN.UTF-8' }, 'zh-CN'],
  ] as const)('%o → %s', (env, locale) => {
    expect(cliLocale(env)).toBe(locale);
  });
});
