// Chat text on its way to a pane: text stays text. A control character typed into a terminal is a keystroke (ESC is
// the Esc key, 0x03 is Ctrl+C), and keys are for operators (card key row), so controls become visible symbols.

/**
 * Decisions per character class (issue 13 finding 7):
 * - tab and newline are text (indentation, multi-line prompts); CRLF and a lone CR become a newline;
 * - every other C0 control and DEL becomes its Unicode control picture (ESC → ␛, 0x03 → ␃, DEL → ␡): visible, and
 *   nothing is lost from a pasted log full of colour codes;
 * - C1 controls (U+0080–U+009F; U+009B is CSI to a terminal) become the text `\u009b`.
 * Nothing is refused: a message is never lost for a stray byte, and no byte becomes a key.
 */
export function literalChatText(text: string): { text: string; replaced: number } {
  let replaced = 0;
  const out = text.replace(/\r\n?/g, '\n').replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, (c) => {
    replaced++;
    const code = c.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '\u2421';
    return `\\u${code.toString(16).padStart(4, '0')}`;
  });
  return { text: out, replaced };
}
