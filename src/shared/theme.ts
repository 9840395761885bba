// The terminal colour theme shared by the PNG renderer and the browser terminal page: plain data, no imports.

export interface TerminalTheme {
  foreground: string;
  background: string;
  cursor: string;
  cursorAccent: string;
  /** ANSI colours 0–15: black, red, green, yellow, blue, magenta, cyan, white, then the bright ones. */
  ansi: readonly string[];
}

/** A dark theme close to xterm.js defaults, so the phone screenshot and the live page look the same. */
export const THEME: TerminalTheme = {
  foreground: '#d4d4d4',
  background: '#1e1e1e',
  cursor: '#d4d4d4',
  cursorAccent: '#1e1e1e',
  ansi: [
    '#000000', '#cd3131', '#0dbc79', '#e5e510', '#2472c8', '#bc3fbc', '#11a8cd', '#e5e5e5',
    '#666666', '#f14c4c', '#23d18b', '#f5f543', '#3b8eea', '#d670d6', '#29b8db', '#ffffff',
  ],
};

/** The same theme in the shape `new Terminal({ theme })` from @xterm/xterm expects. */
export const XTERM_THEME = {
  foreground: THEME.foreground,
  background: THEME.background,
  cursor: THEME.cursor,
  cursorAccent: THEME.cursorAccent,
  black: THEME.ansi[0], red: THEME.ansi[1], green: THEME.ansi[2], yellow: THEME.ansi[3],
  blue: THEME.ansi[4], magenta: THEME.ansi[5], cyan: THEME.ansi[6], white: THEME.ansi[7],
  brightBlack: THEME.ansi[8], brightRed: THEME.ansi[9], brightGreen: THEME.ansi[10], brightYellow: THEME.ansi[11],
  brightBlue: THEME.ansi[12], brightMagenta: THEME.ansi[13], brightCyan: THEME.ansi[14], brightWhite: THEME.ansi[15],
} as const;
