// How a piece of text is typed into a pane: keystrokes for a short line, one bracketed paste for anything else.

export const TEXT_INPUT_LIMITS = {
  /**
   * Above this many UTF-8 bytes a single line is pasted rather than typed. tmux's client sends its whole command
   * line in one message capped at 16 KiB, and TUIs redraw per keystroke, so typing long text is slow and fragile.
   */
  maxTypedBytes: 1_024,
} as const;

export type TextInputPlan =
  | { method: 'none' }
  | { method: 'type'; text: string }
  | { method: 'paste'; text: string };

/**
 * Single-line short text is typed (`send-keys -l`); text with a line break or a tab, or longer than the limit, is pasted
 * (`load-buffer` + `paste-buffer -p`), so a multi-line message is one submission. CRLF is reduced to LF first:
 * tmux turns every LF of a paste into CR, as a terminal does, and CRLF would become two line ends.
 */
export function planTextInput(text: string, limits: { maxTypedBytes: number } = TEXT_INPUT_LIMITS): TextInputPlan {
  if (text.length === 0) return { method: 'none' };
  const normalized = text.replace(/\r\n/g, '\n');
  const multiLine = /[\r\n]/.test(normalized);
  // A typed tab is a key (shell completion, a TUI's focus or autocomplete), never text: only a paste keeps it literal.
  const hasTab = normalized.includes('\t');
  if (!multiLine && !hasTab && Buffer.byteLength(normalized, 'utf8') <= limits.maxTypedBytes) return { method: 'type', text: normalized };
  return { method: 'paste', text: normalized };
}
