// The browser⇄worker frames and the proxy's URL routing: what is accepted, what is dropped.
import { describe, expect, it } from 'vitest';
import { routeOf } from '../../src/daemon/web/web-route.js';
import { WEBTERM_LIMITS, parseClientFrame, parseServerFrame } from '../../src/shared/webterm-protocol.js';

describe('parseClientFrame', () => {
  it.each([
    ['keystrokes', '{"t":"in","d":"ls\\r"}', true],
    ['history request', '{"t":"history"}', true],
    ['history request with extras', '{"t":"history","lines":100000}', false],
    // Pages never scroll the shared pane any more (issue 13 finding 4): the old wheel frame is refused.
    ['wheel (no longer accepted)', '{"t":"wheel","dir":"up","n":3}', false],
    ['hello', '{"t":"hello","cols":40,"rows":20}', true],
    ['empty input', '{"t":"in","d":""}', false],
    ['too much input', JSON.stringify({ t: 'in', d: 'x'.repeat(WEBTERM_LIMITS.inputChars + 1) }), false],
    ['unknown type', '{"t":"resize","cols":10,"rows":5}', false],
    ['extra field', '{"t":"in","d":"a","x":1}', false],
    ['not JSON', 'ls -la', false],
  ])('%s → %s', (_name, text, ok) => {
    expect(parseClientFrame(text).ok).toBe(ok);
  });

  it('never echoes frame content in the reason', () => {
    const res = parseClientFrame('{"t":"in","d":123456789}');
    expect(res).toMatchObject({ ok: false });
    if (!res.ok) expect(res.reason).not.toContain('123456789');
  });

  it('parses info frames', () => {
    expect(parseServerFrame('{"t":"info","protocol":1,"readOnly":true,"cols":100,"rows":31}')).toEqual({
      ok: true, frame: { t: 'info', protocol: 1, readOnly: true, cols: 100, rows: 31 },
    });
  });

  it('parses history frames and refuses oversized ones', () => {
    expect(parseServerFrame('{"t":"history","text":"a\\nb"}')).toMatchObject({ ok: true, frame: { t: 'history', text: 'a\nb' } });
    expect(parseServerFrame(JSON.stringify({ t: 'history', text: 'x'.repeat(WEBTERM_LIMITS.historyChars + 1) })).ok).toBe(false);
  });
});

const ID = 'f'.repeat(32);
describe('routeOf', () => {
  it.each([
    [`/s/${ID}/`, { kind: 'session', sessionId: ID, path: '/', viewToken: null }],
    [`/s/${ID}/?v=abc`, { kind: 'session', sessionId: ID, path: '/', viewToken: 'abc' }],
    [`/s/${ID}/ws?v=abc`, { kind: 'session', sessionId: ID, path: '/ws', viewToken: 'abc' }],
    [`/s/${ID}/main.js`, { kind: 'session', sessionId: ID, path: '/main.js', viewToken: null }],
    [`/s/${ID}`, { kind: 'add_slash', sessionId: ID }],
    [`/s/${ID}/w/TOKEN`, { kind: 'write_link', sessionId: ID, token: 'TOKEN' }],
    [`/s/${ID}/w/TOKEN/x`, { kind: 'session', sessionId: ID, path: '/w/TOKEN/x', viewToken: null }],
    ['/s/not-a-session/', { kind: 'not_found' }],
    [`/s/${ID.toUpperCase()}/`, { kind: 'not_found' }],
    ['/', { kind: 'not_found' }],
    ['/healthz', { kind: 'health' }],
    ['/healthz/x', { kind: 'not_found' }],
    ['/etc/passwd', { kind: 'not_found' }],
    [`/s/${ID}/../../etc/passwd`, { kind: 'not_found' }],
  ])('%s', (url, want) => {
    expect(routeOf(url)).toEqual(want);
  });
});
