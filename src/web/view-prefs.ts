// The reader's view preferences (text size, fit-to-width), remembered in localStorage, and the defaults per kind of screen.
export const VIEW_FONT = {
  /** A touch screen's default: 14 px glyphs (about 48 columns on a 390 px phone) read comfortably at arm's length. */
  touchDefault: 14,
  /** The smallest size a phone page shrinks to by itself: below ~11 CSS px a phone user has to pinch-zoom. */
  touchMin: 11,
  /** What the A−/A+ control allows. */
  min: 8,
  max: 28,
  step: 1,
} as const;

const STORAGE_KEY = 'larkmux.webterm.view';

export interface ViewPrefs {
  /** Text size the reader chose; null = automatic (fit the pane on a desktop, VIEW_FONT.touchDefault when fitting). */
  fontSize: number | null;
  /** Fit-to-width as chosen; null = the default (on for write pages on touch screens). */
  fit: boolean | null;
  /** The readable text view (view-only pages) as chosen; null = the default (on for phones when the pane is too wide). */
  text: boolean | null;
}

export function clampFont(px: number): number {
  return Math.max(VIEW_FONT.min, Math.min(VIEW_FONT.max, Math.round(px / VIEW_FONT.step) * VIEW_FONT.step));
}

/** Reads the stored preferences; anything unreadable counts as unset (a bad value never breaks the page). */
export function loadViewPrefs(storage: Pick<Storage, 'getItem'> | null): ViewPrefs {
  const prefs: ViewPrefs = { fontSize: null, fit: null, text: null };
  try {
    const raw = JSON.parse(storage?.getItem(STORAGE_KEY) ?? 'null') as unknown;
    if (raw && typeof raw === 'object') {
      const r = raw as Record<string, unknown>;
      if (typeof r.fontSize === 'number' && Number.isFinite(r.fontSize)) prefs.fontSize = clampFont(r.fontSize);
      if (typeof r.fit === 'boolean') prefs.fit = r.fit;
      if (typeof r.text === 'boolean') prefs.text = r.text;
    }
  } catch {
    // unreadable JSON or storage denied (private mode): defaults
  }
  return prefs;
}

export function saveViewPrefs(storage: Pick<Storage, 'setItem'> | null, prefs: ViewPrefs): void {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(prefs));
  } catch {
    // storage full or denied: the choice lasts for this page only
  }
}

/**
 * Touch screens get the phone defaults (fit-to-width, text view, ≥ 11 px). A narrow desktop window does not: fitting
 * there would resize the shared pane just because someone made a browser window small.
 */
export function isPhoneScreen(win: Pick<Window, 'matchMedia'>): boolean {
  return win.matchMedia('(pointer: coarse)').matches;
}
