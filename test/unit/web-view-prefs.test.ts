// The web page's remembered view preferences: what loads from localStorage (bad values never break the page) and the font clamp.
import { describe, expect, it } from 'vitest';
import { clampFont, loadViewPrefs, saveViewPrefs, VIEW_FONT, type ViewPrefs } from '../../src/web/view-prefs.js';

const stored = (value: string | null) => ({ getItem: () => value });
const UNSET: ViewPrefs = { fontSize: null, fit: null, text: null };

describe('loadViewPrefs', () => {
  it.each<[string, string | null, ViewPrefs]>([
    ['nothing stored', null, UNSET],
    ['everything chosen', '{"fontSize":16,"fit":false,"text":true}', { fontSize: 16, fit: false, text: true }],
    ['not JSON', '{oops', UNSET],
    ['wrong types are ignored', '{"fontSize":"16","fit":"yes","text":1}', UNSET],
    ['a size out of range is clamped', '{"fontSize":400}', { ...UNSET, fontSize: VIEW_FONT.max }],
    ['NaN-like sizes are ignored', '{"fontSize":null}', UNSET],
    ['an array is not a preference object', '[1,2]', UNSET],
  ])('%s', (_name, raw, expected) => expect(loadViewPrefs(stored(raw))).toEqual(expected));

  it('storage that throws (private mode) gives the defaults, and saving to it is harmless', () => {
    const denied = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } };
    expect(loadViewPrefs(denied)).toEqual(UNSET);
    expect(() => saveViewPrefs(denied, { fontSize: 12, fit: true, text: null })).not.toThrow();
  });

  it('what is saved loads back', () => {
    let value: string | null = null;
    const storage = { getItem: () => value, setItem: (_k: string, v: string) => void (value = v) };
    saveViewPrefs(storage, { fontSize: 13, fit: true, text: false });
    expect(loadViewPrefs(storage)).toEqual({ fontSize: 13, fit: true, text: false });
  });
});

describe('clampFont', () => {
  it.each([[13, 13], [13.4, 13], [2, VIEW_FONT.min], [99, VIEW_FONT.max]])('%f -> %f', (px, expected) => expect(clampFont(px)).toBe(expected));
});
