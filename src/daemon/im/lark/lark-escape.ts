// Text from screens, CLIs and people goes into Feishu markdown and text messages as text: no links, no @mentions.
// Issue 13 finding 11: a screen line `<at id=all></at>` or `[safe](https://evil)` rendered as a mention or a link.

/**
 * Feishu card markdown decodes HTML numeric entities (its documented way to show `<`, `[`, `*`… literally). What could
 * make text act — tags (`<at id=all>`, `<a>`, `<font>`), links and images (`[x](url)`, `![x](key)`), bold and
 * strike-through that disguise — becomes an entity, and `&` too so an entity in the text stays as typed. `_` stays:
 * open ids (`ou_…`) are full of it and a stray italic hides nothing.
 */
const MARKDOWN_SPECIAL = /[&<>[\]*~]/g;

export function escapeLarkMarkdown(text: string): string {
  return text.replace(MARKDOWN_SPECIAL, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Inside a fenced code block entities would show as typed, so a tag is broken instead: a zero-width space after `<`
 * when a letter, `/` or `!` follows (`<at` can never be a tag), and runs of three backticks cannot close the fence.
 */
export function codeBlock(text: string): string {
  const safe = text.replace(/`{3,}/g, (m) => m.split('').join('\u200b')).replace(/<(?=[A-Za-z/!])/g, '<\u200b');
  return `\`\`\`\n${safe}\n\`\`\``;
}

/** Text messages parse `<at user_id="all">` too: the same break keeps a CLI's answer from pinging anyone. */
export function neutralizeTextTags(text: string): string {
  return text.replace(/<(?=\s*\/?\s*at[\s>/])/gi, '<\u200b');
}

/** Bytes a code point takes once escaped by escapeLarkMarkdown (an entity is at most 6 bytes: `&#126;`). */
export function larkMarkdownCost(cp: number): number {
  if (cp === 0x26 || cp === 0x3c || cp === 0x3e || cp === 0x5b || cp === 0x5d || cp === 0x2a || cp === 0x7e) return 6;
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}
