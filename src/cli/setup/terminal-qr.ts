// The scan link as a QR code a phone can read off the terminal (issue 32 item 11). `uqr` encodes; this only lays out.
import { renderUnicodeCompact } from 'uqr';

/**
 * uqr's compact form draws the LIGHT modules as blocks (made for a dark terminal). On a light theme that is a negative
 * code, which not every scanner reads, so a TTY gets explicit white-on-black: the right polarity whatever the theme.
 */
const LIGHT_ON_DARK = { on: '\x1b[97;40m', off: '\x1b[0m' } as const;

/**
 * Two QR rows per text line (half blocks), a quiet zone of 2 modules, low error correction: the registration link is
 * long (it carries the requested scopes), and a smaller code fits an 80-column terminal and scans more easily.
 * `colour` paints each line white-on-black (for a TTY); without it the lines are the bare block characters.
 */
export function terminalQr(link: string, colour: boolean): string[] {
  const lines = renderUnicodeCompact(link, { ecc: 'L', border: 2 }).split('\n').filter((l) => l.length > 0);
  return colour ? lines.map((l) => `${LIGHT_ON_DARK.on}${l}${LIGHT_ON_DARK.off}`) : lines;
}
