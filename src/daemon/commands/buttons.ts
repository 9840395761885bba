// Commands reached only by card buttons: the key row and the answers to a CLI's selection prompt.
import type { ButtonCommand } from './types.js';

/** The key row under a streaming card (Esc, Ctrl+C, arrows, Enter…): an operator presses them into the CLI. */
export const keyButtons: ButtonCommand = {
  name: 'key',
  level: 'operate',
  taps: {
    key: (ctx, v) => ctx.pressKey(v.sessionId, v.key),
  },
};

/**
 * An option of a selection prompt (a permission dialog, a question). Its level is the operators'; the person whose
 * turn raised the prompt may answer it too (the router's canAnswerSelection).
 */
export const selectionButtons: ButtonCommand = {
  name: 'select',
  level: 'operate',
  taps: {
    select: (ctx, v, tap) => ctx.answerSelection(v.sessionId, v.promptId, v.optionIndex, tap.typedText),
  },
};
