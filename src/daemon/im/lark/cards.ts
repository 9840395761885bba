// Pure rendering of the IM-agnostic CardModel into Feishu card JSON 2.0, kept under the platform's 30 KB body limit.
import { STATUS_LOOK, numberedOption, type AdoptCard, type CardActionValue, type CardButton, type CardModel, type ChangesCard, type PickerCard, type SchedulesCard, type SelectionCard, type StreamingCard } from '../../../shared/card-model.js';
import { t as translate, type Locale, type Translate } from '../../../shared/i18n.js';
import { keyLabel } from '../../../shared/keys.js';
import { tailWhole } from '../../../shared/utf8-parts.js';
import { codeBlock, escapeLarkMarkdown } from './lark-escape.js';
import { typedAnswerForm, withAttention } from './attention-card.js';

export const CARD_LIMITS = {
  /** Feishu refuses card bodies over 30 KB; 28 KB leaves room for the JSON string wrapping and escapes. */
  maxBytes: 28 * 1024,
  /** Buttons per row of the key pad: five fit a phone screen. */
  keysPerRow: 5,
  /** Summary (chat list preview) length. */
  summaryChars: 60,
} as const;

type Json = Record<string, unknown>;

/** STATUS_LOOK colour names → Feishu header templates (the set Feishu accepts). */
const TEMPLATE: Record<string, string> = {
  blue: 'blue', orange: 'orange', red: 'red', green: 'green', purple: 'purple', grey: 'grey',
  wathet: 'wathet', turquoise: 'turquoise', yellow: 'yellow', carmine: 'carmine', violet: 'violet', indigo: 'indigo',
};

const plain = (content: string): Json => ({ tag: 'plain_text', content });

const BUTTON_TYPE = { default: 'default', primary: 'primary', danger: 'danger' } as const;

export function callbackButton(label: string, value: CardActionValue, style: keyof typeof BUTTON_TYPE = 'default'): Json {
  return { tag: 'button', text: plain(label), type: BUTTON_TYPE[style], size: 'small', behaviors: [{ type: 'callback', value }] };
}

function modelButton(b: CardButton): Json | null {
  if (b.value) return callbackButton(b.label, b.value, b.style);
  if (b.url) return { tag: 'button', text: plain(b.label), type: BUTTON_TYPE[b.style], size: 'small', behaviors: [{ type: 'open_url', default_url: b.url }] };
  return null;
}

/** A wrapping row of buttons (column_set in flow mode: each button its own auto-width column). */
export function buttonRow(buttons: Json[]): Json {
  return {
    tag: 'column_set', flex_mode: 'flow', horizontal_spacing: '4px',
    columns: buttons.map((b) => ({ tag: 'column', width: 'auto', elements: [b] })),
  };
}

function chunk<T>(xs: readonly T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

function card(template: string, title: string, subtitle: string | undefined, summary: string, elements: Json[]): Json {
  const header: Json = { template, title: plain(title) };
  if (subtitle) header.subtitle = plain(subtitle);
  return {
    schema: '2.0',
    config: { update_multi: true, summary: { content: summary.slice(0, CARD_LIMITS.summaryChars) } },
    header,
    body: { elements },
  };
}

function renderStream(m: StreamingCard, screenText: string | undefined, t: Translate): Json {
  const look = { colour: STATUS_LOOK[m.status].colour, label: t(STATUS_LOOK[m.status].label) };
  const elements: Json[] = [];
  if (m.notice) elements.push({ tag: 'markdown', content: escapeLarkMarkdown(m.notice) });
  if (m.display === 'screenshot' && m.image) {
    elements.push({ tag: 'img', img_key: m.image.ref, alt: plain(t('card.screenAlt')), scale_type: 'fit_horizontal', preview: true });
  } else if (m.display !== 'hidden' && screenText !== undefined && screenText.length > 0) {
    elements.push({ tag: 'markdown', content: codeBlock(screenText) });
  }
  if (!m.frozen) {
    const keys = m.keys.map((k) => callbackButton(keyLabel(k, t), { action: 'key', sessionId: m.sessionId, key: k }));
    for (const row of chunk(keys, CARD_LIMITS.keysPerRow)) elements.push(buttonRow(row));
    const extra = m.buttons.map(modelButton).filter((b): b is Json => b !== null);
    if (extra.length) elements.push(buttonRow(extra));
  }
  if (m.footer) elements.push({ tag: 'markdown', content: escapeLarkMarkdown(m.footer) });
  const subtitle = m.subtitle ? `${look.label} · ${m.subtitle}` : look.label;
  return card(TEMPLATE[look.colour] ?? 'blue', m.title, subtitle, `${look.label} · ${m.title}`, elements);
}

function renderSelection(m: SelectionCard, t: Translate): Json {
  const elements: Json[] = [];
  const list = m.options.map((o, i) => `${numberedOption(escapeLarkMarkdown(o.label), i)}${i === m.defaultIndex ? t('card.default') : ''}`).join('\n');
  if (list) elements.push({ tag: 'markdown', content: list });
  if (m.answered) {
    const chosen = m.answered.text ?? m.options[m.answered.optionIndex]?.label ?? t('card.option', { n: m.answered.optionIndex + 1 });
    elements.push({ tag: 'markdown', content: t('card.answeredBy', { who: escapeLarkMarkdown(m.answered.by), choice: escapeLarkMarkdown(chosen) }) });
  } else {
    const buttons = m.options.map((o, i) =>
      callbackButton(o.label, { action: 'select', sessionId: m.sessionId, promptId: m.promptId, optionIndex: i }, i === m.defaultIndex ? 'primary' : 'default'),
    );
    if (buttons.length) elements.push(buttonRow(buttons));
    if (m.textOption !== undefined) elements.push(typedAnswerForm({ action: 'select', sessionId: m.sessionId, promptId: m.promptId, optionIndex: m.textOption }, t));
  }
  const template = m.answered ? 'green' : TEMPLATE[STATUS_LOOK.waiting.colour]!;
  const out = card(template, m.title, m.answered ? t('card.answered') : t(STATUS_LOOK.waiting.label), m.title, elements);
  return m.answered ? out : withAttention(out, m.attention);
}

function renderPicker(m: PickerCard, t: Translate): Json {
  const elements: Json[] = [];
  if (m.chosen) {
    elements.push({ tag: 'markdown', content: t('card.project', { path: escapeLarkMarkdown(m.chosen) }) });
  } else if (m.projects.length === 0) {
    elements.push({ tag: 'markdown', content: t('card.noProjects') });
  } else {
    elements.push(buttonRow(m.projects.map((p) => callbackButton(p.label, { action: 'project', anchorKey: m.anchorKey, path: p.path }))));
  }
  return card(m.chosen ? 'green' : 'blue', m.title, m.chosen ? t('card.chosen') : t('card.pickProject'), m.title, elements);
}

/**
 * The change card (issue 16): files with +/− lines, the first hunk of the largest change, a link to the whole diff.
 * File names and hunks are the repository's text (hostile): escaped, the hunk inside a fenced block.
 */
function renderChanges(m: ChangesCard, t: Translate): Json {
  const total = m.files.length + m.moreFiles;
  const added = m.files.reduce((n, f) => n + (f.added ?? 0), 0);
  const deleted = m.files.reduce((n, f) => n + (f.deleted ?? 0), 0);
  const lines = m.files.map((f) => (f.added === null || f.deleted === null
    ? `${escapeLarkMarkdown(f.path)} · ${t('changes.binary')}`
    : `${escapeLarkMarkdown(f.path)} · +${f.added} −${f.deleted}`));
  if (m.moreFiles) lines.push(t('changes.more', { n: m.moreFiles }));
  const elements: Json[] = [{ tag: 'markdown', content: lines.join('\n') }];
  if (m.hunk) {
    elements.push({ tag: 'markdown', content: `${t('changes.hunkOf', { path: escapeLarkMarkdown(m.hunk.path) })}\n${codeBlock(m.hunk.text)}` });
  }
  const link = m.diffUrl ? modelButton({ label: t('changes.fullDiff'), style: 'default', url: m.diffUrl }) : null;
  if (link) elements.push(buttonRow([link]));
  const title = t('changes.title', { n: total });
  return card('indigo', title, `+${added} −${deleted}`, title, elements);
}

function renderAdopt(m: AdoptCard, t: Translate): Json {
  const elements: Json[] = m.chosen
    ? [{ tag: 'markdown', content: escapeLarkMarkdown(m.chosen) }]
    : m.candidates.map((c) => buttonRow([callbackButton(c.label, { action: 'adopt', anchorKey: m.anchorKey, paneId: c.paneId, pid: c.pid, ...(c.host ? { host: c.host } : {}) })]));
  return card(m.chosen ? 'green' : 'blue', m.title, m.chosen ? t('card.chosen') : t('adopt.pick'), m.title, elements);
}

function renderSchedules(m: SchedulesCard, t: Translate): Json {
  const elements: Json[] = m.rows.length ? [] : [{ tag: 'markdown', content: escapeLarkMarkdown(m.empty ?? '') }];
  for (const r of m.rows) {
    elements.push({ tag: 'markdown', content: escapeLarkMarkdown(r.text) });
    const op = r.paused ? 'resume' : 'pause';
    elements.push(buttonRow([
      callbackButton(t(r.paused ? 'schedule.resume' : 'schedule.pause'), { action: 'schedule', scheduleId: r.scheduleId, op }),
      callbackButton(t('schedule.delete'), { action: 'schedule', scheduleId: r.scheduleId, op: 'delete' }, 'danger'),
    ]));
  }
  return card('blue', m.title, undefined, m.title, elements);
}

export function byteLength(card: Json): number {
  return Buffer.byteLength(JSON.stringify(card));
}

/** Keeps the last part of the screen (the bottom is where the prompt and the answer are). */
export function keepTail(text: string, maxChars: number, t: Translate): string {
  if (text.length <= maxChars) return text;
  const tail = tailWhole(text, maxChars);
  const nl = tail.indexOf('\n');
  const clean = nl >= 0 && nl < 200 ? tail.slice(nl + 1) : tail;
  return `${t('card.earlierCut')}\n${clean}`;
}

/** CardModel → Feishu card JSON 2.0 (as an object; send JSON.stringify of it), in the bot's locale. Always ≤ maxBytes. */
export function renderCard(model: CardModel, locale: Locale, maxBytes: number = CARD_LIMITS.maxBytes): Json {
  const t: Translate = (key, params) => translate(locale, key, params);
  if (model.kind === 'selection') return shrinkGeneric(renderSelection(model, t), maxBytes);
  if (model.kind === 'picker') return shrinkGeneric(renderPicker(model, t), maxBytes);
  if (model.kind === 'changes') return shrinkGeneric(renderChanges(model, t), maxBytes);
  if (model.kind === 'adopt') return shrinkGeneric(renderAdopt(model, t), maxBytes);
  if (model.kind === 'schedules') return shrinkGeneric(renderSchedules(model, t), maxBytes);
  let text = model.screenText;
  let out = renderStream(model, text, t);
  for (let i = 0; i < 12 && byteLength(out) > maxBytes && text; i++) {
    // Bytes per character of this text as serialised (escapes, CJK): size the cut from it, then re-measure.
    const textBytes = Buffer.byteLength(JSON.stringify(text));
    const room = maxBytes - (byteLength(out) - textBytes) - 64;
    const keep = Math.floor((room / (textBytes / text.length)) * 0.95);
    text = keep <= 0 ? '' : keepTail(text, keep, t);
    out = renderStream(model, text, t);
  }
  if (byteLength(out) > maxBytes) out = renderStream({ ...model, notice: model.notice?.slice(0, 2000) }, '', t);
  return shrinkGeneric(out, maxBytes);
}

/** Last resort for oversize cards (huge titles or option lists): cut long markdown blocks until it fits. */
function shrinkGeneric(card: Json, maxBytes: number): Json {
  for (let i = 0; i < 8 && byteLength(card) > maxBytes; i++) {
    const elements = (card.body as { elements: Json[] }).elements;
    const longest = elements.filter((e) => e.tag === 'markdown').sort((a, b) => String(b.content).length - String(a.content).length)[0];
    if (!longest) break;
    const s = String(longest.content);
    longest.content = `${s.slice(0, Math.floor(s.length / 2))}\n…`;
  }
  return card;
}
