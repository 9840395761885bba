// Notices mark commands and paths with backticks (`larkmux start`), which Feishu's card markdown shows as code; the
// console shows them the same way instead of as literal backticks. Pure: the page builds nodes from the parts.

export interface TextPart {
  code: boolean;
  text: string;
}

/**
 * The text split into plain and code parts: a backtick pair around text on one line is code, as in Markdown's single-
 * backtick spans; an unpaired backtick, or one pair with nothing inside, stays as typed. No part is ever HTML.
 */
export function inlineCodeParts(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let plainFrom = 0;
  for (const m of text.matchAll(/`([^`\n]+)`/g)) {
    if (m.index > plainFrom) parts.push({ code: false, text: text.slice(plainFrom, m.index) });
    parts.push({ code: true, text: m[1]! });
    plainFrom = m.index + m[0].length;
  }
  if (plainFrom < text.length || parts.length === 0) parts.push({ code: false, text: text.slice(plainFrom) });
  return parts;
}
