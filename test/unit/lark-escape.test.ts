// Screen text, answers and names are text in Feishu markdown (issue 13 finding 11): no mention, link or tag survives.
import { describe, expect, it } from 'vitest';
import { renderCard } from '../../src/daemon/im/lark/cards.js';
import { neutralizeTextTags } from '../../src/daemon/im/lark/lark-escape.js';
import type { CardModel } from '../../src/shared/card-model.js';
import { CARD_KEY_ROW } from '../../src/shared/keys.js';
import { elementsOf } from '../support/cards.js';

const HOSTILE = 'see <at id=all></at> and [docs](https://evil.example/x) ![i](img_x) <a href="https://evil">x</a> **big** ~~gone~~ &#60;at&#62;';

/** Everything in markdown elements, as Feishu's parser gets it. */
function markdownOf(model: CardModel): string[] {
  return elementsOf(renderCard(model, 'en')).filter((e) => e.tag === 'markdown').map((e) => String(e.content));
}

/** What Feishu would act on: a tag, a link or image target, emphasis markers. */
const ACTIVE = [/<\s*at\b/i, /<\s*a\b/i, /\]\(/, /\*\*big/, /~~gone/, /&#60;at&#62;/];

describe('card markdown carries hostile text as text', () => {
  const cases: Array<{ name: string; model: CardModel }> = [
    { name: 'screen text (code block)', model: { kind: 'stream', sessionId: 's', title: 'T', status: 'working', display: 'text', screenText: HOSTILE, keys: [...CARD_KEY_ROW], buttons: [], frozen: false } },
    { name: 'a notice with a worker message', model: { kind: 'stream', sessionId: 's', title: 'T', status: 'working', display: 'hidden', notice: `Problem: ${HOSTILE}`, keys: [], buttons: [], frozen: false } },
    { name: 'selection options from the screen', model: { kind: 'selection', sessionId: 's', promptId: 'p', title: 'Allow?', options: [{ label: HOSTILE }, { label: 'No' }], defaultIndex: 0 } },
    { name: 'who answered and what', model: { kind: 'selection', sessionId: 's', promptId: 'p', title: 'Allow?', options: [{ label: HOSTILE }], defaultIndex: 0, answered: { by: '<at id=all></at>', optionIndex: 0 } } },
    { name: 'a chosen project path', model: { kind: 'picker', anchorKey: 'k', title: 'Project', projects: [], chosen: `/srv/${HOSTILE}` } },
  ];
  it.each(cases)('$name', ({ model }) => {
    const md = markdownOf(model).join('\n');
    expect(md.length).toBeGreaterThan(0);
    const code = md.startsWith('```');
    // In a code block only tags matter (markdown syntax is literal there); elsewhere none of it may act.
    for (const re of code ? ACTIVE.slice(0, 2) : ACTIVE) expect(md).not.toMatch(re);
  });

  it('the text itself is all still there for the reader', () => {
    const [md] = markdownOf({ kind: 'picker', anchorKey: 'k', title: 'Project', projects: [], chosen: HOSTILE });
    const decoded = md!.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)));
    expect(decoded).toBe(`**Project:** ${HOSTILE}`);
  });

  it.each([
    ['<at user_id="all">所有人</at> done', '<\u200bat user_id="all">所有人<\u200b/at> done'],
    ['<AT id=all></at>', '<\u200bAT id=all><\u200b/at>'],
    ['a < b and <attic> and x<atom', 'a < b and <attic> and x<atom'],
  ])('text messages: %j', (input, out) => {
    expect(neutralizeTextTags(input)).toBe(out);
  });
});
