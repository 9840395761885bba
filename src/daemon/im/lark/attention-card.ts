// What a waiting card adds for its person (issue 16): an @-mention, the question as the chat-list summary, a text box.
import { MENTIONABLE_ID } from '../../ground/attention.js';
import type { CardActionValue, CardAttention } from '../../../shared/card-model.js';
import type { Translate } from '../../../shared/i18n.js';

type Json = Record<string, unknown>;

export const ATTENTION_CARD_LIMITS = {
  /** Feishu's chat-list preview shows about one line; the platform accepts longer, the phone cuts it anyway. */
  summaryChars: 60,
  /** Feishu's input component accepts at most 1000 characters (its max_length ceiling). */
  answerChars: 1000,
} as const;

/** The form field names the callback's form_value is keyed by (events.ts reads the answer back by this name). */
export const ANSWER_FORM = { form: 'answer_form', input: 'answer', submit: 'answer_submit' } as const;

/**
 * Sets the card's chat-list summary to the question and puts an @-mention of the person at the top. Only an open id
 * is ever put into the tag (never "all", never text from a screen), so nobody else is pinged.
 */
export function withAttention(card: Json, attention: CardAttention | undefined): Json {
  if (!attention) return card;
  const config = { ...(card.config as Json) };
  if (attention.summary) config.summary = { content: oneLine(attention.summary, ATTENTION_CARD_LIMITS.summaryChars) };
  const body = card.body as { elements: Json[] };
  const mention = attention.mention && MENTIONABLE_ID.test(attention.mention) ? [{ tag: 'markdown', content: `<at id=${attention.mention}></at>` }] : [];
  return { ...card, config, body: { ...body, elements: [...mention, ...body.elements] } };
}

/** A JSON 2.0 form: one text box and a submit button whose callback carries `value` and the typed text (form_value). */
export function typedAnswerForm(value: CardActionValue, t: Translate): Json {
  return {
    tag: 'form',
    name: ANSWER_FORM.form,
    elements: [
      {
        tag: 'input', name: ANSWER_FORM.input, required: true, max_length: ATTENTION_CARD_LIMITS.answerChars,
        placeholder: { tag: 'plain_text', content: t('attention.typePlaceholder') },
      },
      {
        tag: 'button', name: ANSWER_FORM.submit, text: { tag: 'plain_text', content: t('attention.sendAnswer') },
        type: 'primary', size: 'small', form_action_type: 'submit', behaviors: [{ type: 'callback', value }],
      },
    ],
  };
}

function oneLine(s: string, max: number): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
