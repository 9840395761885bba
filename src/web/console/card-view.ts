// Renders the IM-agnostic card model as DOM for the console (the counterpart of the Feishu adapter's cards.ts).
import { numberedOption, type AdoptCard, type CardActionValue, type CardButton, type CardModel, type ChangesCard, type PickerCard, type SchedulesCard, type SelectionCard, type StreamingCard } from '../../shared/card-model.js';
import { CONSOLE_PATHS } from '../../shared/console-protocol.js';
import type { Translate } from '../../shared/i18n.js';
import { keyLabel } from '../../shared/keys.js';
import { inlineCodeParts } from './inline-code.js';

export type Press = (value: CardActionValue) => void;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A notice's text with its `code` spans as <code> (as Feishu's markdown shows them); every part is text, never HTML. */
export function withInlineCode<E extends HTMLElement>(e: E, text: string): E {
  e.append(...inlineCodeParts(text).map((p) => (p.code ? el('code', undefined, p.text) : document.createTextNode(p.text))));
  return e;
}

function callback(label: string, value: CardActionValue, press: Press, style: CardButton['style'] = 'default'): HTMLButtonElement {
  const b = el('button', `card-button ${style}`, label);
  b.type = 'button';
  b.dataset.action = value.action;
  if (value.action === 'key') b.dataset.key = value.key;
  // The value in the DOM too: an updated card keeps a button only when it does the same (morph.ts).
  b.dataset.value = JSON.stringify(value);
  b.addEventListener('click', () => press(value));
  return b;
}

function row(buttons: HTMLElement[], cls = 'card-row'): HTMLElement {
  const r = el('div', cls);
  r.append(...buttons);
  return r;
}

function shell(kind: string, colour: string, title: string, subtitle: string | undefined): { root: HTMLElement; body: HTMLElement } {
  const root = el('article', `card card-${kind} colour-${colour}`);
  const head = el('header', 'card-head');
  head.append(el('h3', 'card-title', title));
  if (subtitle) head.append(el('p', 'card-subtitle', subtitle));
  const body = el('div', 'card-body');
  root.append(head, body);
  return { root, body };
}

const STATUS_COLOUR: Record<StreamingCard['status'], string> = {
  starting: 'blue', working: 'orange', waiting: 'red', idle: 'green', limited: 'purple', exited: 'grey', failed: 'red',
};

function stream(m: StreamingCard, tr: Translate, press: Press): HTMLElement {
  const status = tr(`console.status.${m.status}`);
  const { root, body } = shell('stream', STATUS_COLOUR[m.status], m.title, m.subtitle ? `${status} · ${m.subtitle}` : status);
  root.dataset.status = m.status;
  root.dataset.session = m.sessionId;
  root.dataset.frozen = String(m.frozen);
  if (m.notice) body.append(withInlineCode(el('p', 'card-notice'), m.notice));
  if (m.display === 'screenshot' && m.image) {
    const img = el('img', 'card-shot');
    img.src = `${CONSOLE_PATHS.image}${encodeURIComponent(m.image.ref)}`;
    img.alt = tr('console.screenAlt');
    // Screenshots live in the daemon's memory: after a restart an old card's image is gone, so it is left out.
    img.addEventListener('error', () => a.remove());
    // A tall screenshot scrolls in its card (text stays readable): it opens at its bottom, where the prompt and the newest output are.
    img.addEventListener('load', () => { a.scrollTop = a.scrollHeight; });
    // A tap opens the full-size image (phones: pinch-zoom there).
    const a = el('a', 'card-shot-link');
    a.href = img.src;
    a.target = '_blank';
    a.rel = 'noopener';
    a.append(img);
    body.append(a);
  }
  if (m.display !== 'hidden' && m.screenText) body.append(el('pre', 'card-screen', m.screenText));
  if (!m.frozen) {
    body.append(row(m.keys.map((k) => callback(keyLabel(k, tr), { action: 'key', sessionId: m.sessionId, key: k }, press)), 'card-row keys'));
    const extra: HTMLElement[] = [];
    for (const b of m.buttons) {
      if (b.value?.action === 'write_link') continue; // the console's terminal link writes already (the console user is the owner)
      if (b.value) extra.push(callback(b.label, b.value, press, b.style));
      else if (b.url) {
        // The only link button is the web terminal; the console opens it through its own route, with write access.
        const a = el('a', `card-button link ${b.style}`, tr('console.webTerminal'));
        a.href = `${CONSOLE_PATHS.term}${m.sessionId}`;
        a.target = '_blank';
        a.rel = 'noopener';
        a.dataset.action = 'terminal';
        extra.push(a);
      }
    }
    if (extra.length) body.append(row(extra));
  }
  if (m.footer) body.append(el('p', 'card-footer', m.footer));
  return root;
}

function selection(m: SelectionCard, tr: Translate, press: Press): HTMLElement {
  const { root, body } = shell('selection', m.answered ? 'green' : 'red', m.title, m.answered ? undefined : tr('console.status.waiting'));
  root.dataset.session = m.sessionId;
  root.dataset.prompt = m.promptId;
  const list = el('ol', 'card-options');
  m.options.forEach((o, i) => {
    const line = numberedOption(o.label, i);
    list.append(el('li', i === m.defaultIndex ? 'default' : '', i === m.defaultIndex ? `${line} (${tr('console.default')})` : line));
  });
  body.append(list);
  if (m.answered) {
    const chosen = m.options[m.answered.optionIndex]?.label ?? String(m.answered.optionIndex + 1);
    body.append(el('p', 'card-answered', tr('console.answeredBy', { who: m.answered.by, choice: chosen })));
  } else {
    body.append(row(m.options.map((o, i) =>
      callback(o.label, { action: 'select', sessionId: m.sessionId, promptId: m.promptId, optionIndex: i }, press, i === m.defaultIndex ? 'primary' : 'default'))));
  }
  return root;
}

function picker(m: PickerCard, press: Press): HTMLElement {
  const { root, body } = shell('picker', m.chosen ? 'green' : 'blue', m.title, undefined);
  if (m.chosen) body.append(el('p', 'card-answered', m.chosen));
  else body.append(row(m.projects.map((p) => callback(p.label, { action: 'project', anchorKey: m.anchorKey, path: p.path }, press))));
  return root;
}

/** What a turn changed: files with +/−, the first hunk of the largest change, the full diff's link (all as text). */
function changes(m: ChangesCard, tr: Translate): HTMLElement {
  const { root, body } = shell('changes', 'indigo', tr('changes.title', { n: m.files.length + m.moreFiles }), undefined);
  const list = el('ul', 'card-files');
  for (const f of m.files) list.append(el('li', undefined, f.added === null || f.deleted === null ? `${f.path} · ${tr('changes.binary')}` : `${f.path} · +${f.added} −${f.deleted}`));
  if (m.moreFiles) list.append(el('li', undefined, tr('changes.more', { n: m.moreFiles })));
  body.append(list);
  if (m.hunk) body.append(el('p', undefined, tr('changes.hunkOf', { path: m.hunk.path })), el('pre', 'card-text', m.hunk.text));
  if (m.diffUrl) {
    const a = el('a', 'card-button default', tr('changes.fullDiff'));
    a.href = m.diffUrl;
    a.target = '_blank';
    a.rel = 'noopener noreferrer';
    body.append(row([a]));
  }
  return root;
}

function adopt(m: AdoptCard, press: Press): HTMLElement {
  const { root, body } = shell('picker', m.chosen ? 'green' : 'blue', m.title, undefined);
  if (m.chosen) body.append(el('p', 'card-answered', m.chosen));
  else for (const c of m.candidates) body.append(row([callback(c.label, { action: 'adopt', anchorKey: m.anchorKey, paneId: c.paneId, pid: c.pid, ...(c.host ? { host: c.host } : {}) }, press)]));
  return root;
}

function schedules(m: SchedulesCard, tr: Translate, press: Press): HTMLElement {
  const { root, body } = shell('picker', 'blue', m.title, undefined);
  if (!m.rows.length) body.append(el('p', 'card-answered', m.empty ?? ''));
  for (const r of m.rows) {
    body.append(el('p', '', r.text));
    body.append(row([
      callback(tr(r.paused ? 'schedule.resume' : 'schedule.pause'), { action: 'schedule', scheduleId: r.scheduleId, op: r.paused ? 'resume' : 'pause' }, press),
      callback(tr('schedule.delete'), { action: 'schedule', scheduleId: r.scheduleId, op: 'delete' }, press, 'danger'),
    ]));
  }
  return root;
}

export function renderCard(model: CardModel, tr: Translate, press: Press): HTMLElement {
  if (model.kind === 'stream') return stream(model, tr, press);
  if (model.kind === 'selection') return selection(model, tr, press);
  if (model.kind === 'changes') return changes(model, tr);
  if (model.kind === 'adopt') return adopt(model, press);
  if (model.kind === 'schedules') return schedules(model, tr, press);
  return picker(model, press);
}
