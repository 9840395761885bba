// Pure parts of scan-to-create: which accounts host registerApp talks to, what the new app asks for, the output language.
import { describe, expect, it } from 'vitest';
import { CONSOLE_EVENTS, SCOPES } from '../../src/cli/setup/console-settings.js';
import { accountsHost, scanAddons } from '../../src/cli/setup/scan-create.js';

describe('accountsHost', () => {
  it.each([
    { domain: undefined, url: undefined, want: { ok: true, host: 'accounts.feishu.cn', larkHost: 'accounts.larksuite.com' } },
    { domain: 'feishu', url: undefined, want: { ok: true, host: 'accounts.feishu.cn', larkHost: 'accounts.larksuite.com' } },
    { domain: 'lark', url: undefined, want: { ok: true, host: 'accounts.larksuite.com', larkHost: 'accounts.larksuite.com' } },
    { domain: 'https://open.corp.example', url: 'https://accounts.corp.example:8443', want: { ok: true, host: 'accounts.corp.example:8443', larkHost: 'accounts.corp.example:8443' } },
    { domain: 'feishu', url: 'https://127.0.0.1:4443/', want: { ok: true, host: '127.0.0.1:4443', larkHost: '127.0.0.1:4443' } },
  ])('$domain + $url → $want.host', ({ domain, url, want }) => {
    expect(accountsHost(domain, url)).toEqual(want);
  });

  it.each([
    { domain: 'https://open.corp.example', url: undefined, problem: /private deployment give --accounts-url/ },
    { domain: 'feishu', url: 'http://127.0.0.1:4443', problem: /reached over https/ },
    { domain: 'feishu', url: 'https://accounts.example.com/oauth', problem: /root of its host/ },
    { domain: 'feishu', url: 'accounts.example.com', problem: /write a base URL/ },
  ])('refuses $domain + $url with a reason', ({ domain, url, problem }) => {
    const r = accountsHost(domain, url);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem).toMatch(problem);
  });
});

describe('scanAddons', () => {
  it('asks for every required scope, the message event and the card callback, nothing optional', () => {
    const addons = scanAddons();
    expect(addons.scopes?.tenant).toEqual(SCOPES.filter((s) => s.required).map((s) => s.scope));
    expect(addons.scopes?.tenant).not.toContain('im:message.group_msg');
    expect(addons.events?.items?.tenant).toEqual([CONSOLE_EVENTS.messageEvent]);
    expect(addons.callbacks?.items).toEqual([CONSOLE_EVENTS.cardCallback]);
  });
});
