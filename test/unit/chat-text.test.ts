// Chat text never becomes keystrokes (issue 13 finding 7): per character class, kept, normalised or made visible.
import { describe, expect, it } from 'vitest';
import { literalChatText } from '../../src/shared/chat-text.js';

describe('literalChatText', () => {
  it.each([
    ['plain 你好 🚀 $(x) `y`', 'plain 你好 🚀 $(x) `y`', 0],
    ['tab\there\nnext', 'tab\there\nnext', 0],
    ['crlf\r\nlone cr\rend', 'crlf\nlone cr\nend', 0],
    ['esc \x1b[31mred\x1b[0m', 'esc ␛[31mred␛[0m', 2],
    ['ctrl-c \x03 ctrl-d \x04 nul \x00 bs \x08', 'ctrl-c ␃ ctrl-d ␄ nul ␀ bs ␈', 4],
    ['paste end \x1b[201~ rm -rf', 'paste end ␛[201~ rm -rf', 1],
    ['vt \x0b ff \x0c del \x7f', 'vt ␋ ff ␌ del ␡', 3],
    ['csi \u009b2J nel \u0085', 'csi \\u009b2J nel \\u0085', 2],
  ])('%j', (input, text, replaced) => {
    expect(literalChatText(input)).toEqual({ text, replaced });
  });
});
