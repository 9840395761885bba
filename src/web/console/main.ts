// The console page: topics on the left (a list on phones), a conversation of messages and live cards, over one WebSocket.
import type { CardActionValue } from '../../shared/card-model.js';
import {
  CONSOLE_PATHS, ConsoleServerMessageSchema, type ConsoleChoices, type ConsoleClientMessage, type ConsoleEntry, type ConsoleTopic,
} from '../../shared/console-protocol.js';
import { localeFromLanguageTag, translator, type Locale, type Translate } from '../../shared/i18n.js';
import { renderCard, withInlineCode } from './card-view.js';
import { ComposerAttachments, mediaElement } from './attachments.js';
import { morph } from './morph.js';

/** Reconnects after a drop (daemon restart): quickly at first, then every 10 s. */
const RECONNECT = { delaysMs: [500, 1_000, 2_000, 5_000, 10_000] } as const;
/** Toasts stay long enough to read on a phone. */
const TOAST_MS = 4_000;
/** "Near the bottom": new entries scroll the conversation only when the reader has not scrolled up. */
const STICK_PX = 120;

// The browser's language until the daemon's hello says which language the console writes in (console.locale, else
// this browser's), so the page's own words always match the cards and notices.
let tr: Translate = translator(localeFromLanguageTag(navigator.languages[0] ?? navigator.language));

function byId<T extends HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`page is missing #${id}`);
  return e as T;
}

const ui = {
  body: document.body,
  newTopic: byId<HTMLButtonElement>('new-topic'),
  topics: byId<HTMLUListElement>('topics'),
  noTopics: byId('no-topics'),
  back: byId<HTMLButtonElement>('back'),
  topicTitle: byId('topic-title'),
  topicMeta: byId('topic-meta'),
  status: byId('status'),
  direct: byId('direct'),
  newForm: byId<HTMLFormElement>('new-form'),
  project: byId<HTMLSelectElement>('project'),
  cli: byId<HTMLSelectElement>('cli'),
  first: byId<HTMLTextAreaElement>('first'),
  conversation: byId('conversation'),
  composer: byId<HTMLFormElement>('composer'),
  text: byId<HTMLTextAreaElement>('text'),
  attach: byId<HTMLLabelElement>('attach'),
  toasts: byId('toasts'),
};

// Static strings from the catalogue.
function localize(locale: Locale): void {
  tr = translator(locale);
  document.documentElement.lang = locale;
  document.title = tr('console.title');
  byId('app-title').textContent = tr('console.title');
  ui.newTopic.textContent = tr('console.newTopic');
  byId('topics-title').textContent = tr('console.topics');
  ui.noTopics.textContent = tr('console.noTopics');
  ui.back.textContent = `‹ ${tr('console.back')}`;
  byId('project-label').textContent = tr('console.project');
  byId('cli-label').textContent = tr('console.cli');
  ui.first.placeholder = tr('console.firstMessage');
  byId('start').textContent = tr('console.start');
  // The placeholder fits one line on a 390 px phone; the keys' hint is the tooltip (phones have no Shift+Enter anyway).
  ui.text.placeholder = tr('console.message');
  ui.text.title = tr('console.messageKeys');
  byId('send').textContent = tr('console.send');
  ui.attach.title = tr('console.attach.button');
  ui.attach.setAttribute('aria-label', tr('console.attach.button'));
  byId('sign-out').textContent = tr('console.signOut');
}
localize(localeFromLanguageTag(navigator.languages[0] ?? navigator.language));

const state = {
  topics: new Map<string, ConsoleTopic>(),
  entries: new Map<string, ConsoleEntry[]>(),
  current: null as string | null,
  pendingRequest: null as string | null,
  choices: { clis: [], projects: [] } as ConsoleChoices,
  uploadBytes: undefined as number | undefined,
};
/** Entry id → its element in the open conversation (cards are replaced in place). */
const shown = new Map<string, HTMLElement>();

let ws: WebSocket | null = null;
let attempt = 0;

function send(msg: ConsoleClientMessage): boolean {
  if (!ws || ws.readyState !== WebSocket.OPEN) {
    toast('error', tr('console.disconnected'));
    return false;
  }
  ws.send(JSON.stringify(msg));
  return true;
}

function toast(level: string, text: string): void {
  const t = document.createElement('div');
  t.className = `toast ${level}`;
  t.textContent = text;
  ui.toasts.append(t);
  setTimeout(() => t.remove(), TOAST_MS);
}

// ── rendering ────────────────────────────────────────────────────────────────

function renderTopics(): void {
  ui.topics.replaceChildren();
  const list = [...state.topics.values()].sort((a, b) => b.createdAt - a.createdAt);
  for (const topic of list) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = `topic${topic.id === state.current ? ' current' : ''}`;
    b.dataset.topic = topic.id;
    const title = document.createElement('span');
    title.className = 'topic-name';
    title.textContent = topic.title;
    const meta = document.createElement('span');
    meta.className = 'meta';
    meta.textContent = `${topic.cli} · ${basename(topic.project)}`;
    b.append(title, meta);
    b.addEventListener('click', () => openTopic(topic.id));
    li.append(b);
    ui.topics.append(li);
  }
  ui.noTopics.hidden = list.length > 0;
}

function basename(path: string): string {
  return path.split('/').filter(Boolean).pop() ?? path;
}

function press(entryId: string): (value: CardActionValue) => void {
  return (value) => void send({ type: 'action', entryId, value });
}

function entryElement(e: ConsoleEntry): HTMLElement {
  if (e.kind === 'card') {
    const card = renderCard(e.card, tr, press(e.id));
    card.dataset.entry = e.id;
    return card;
  }
  const div = document.createElement('div');
  div.dataset.entry = e.id;
  div.className = e.kind === 'user' ? 'bubble user' : 'bubble bot';
  if (e.kind === 'media') {
    div.append(mediaElement(e.media, tr));
    return div;
  }
  const body = document.createElement('div');
  body.className = 'bubble-text';
  // The bot's texts are notices that mark commands with backticks; what a person typed shows exactly as typed.
  if (e.kind === 'user') body.textContent = e.text;
  else withInlineCode(body, e.text);
  if (e.text) div.append(body);
  if (e.kind === 'user') for (const m of e.attachments ?? []) div.append(mediaElement(m, tr));
  if (e.kind === 'user' && e.reaction) {
    const mark = document.createElement('span');
    mark.className = 'reaction';
    mark.title = tr('console.delivered');
    mark.textContent = '✓';
    div.append(mark);
  }
  return div;
}

function nearBottom(): boolean {
  const c = ui.conversation;
  return c.scrollHeight - c.scrollTop - c.clientHeight < STICK_PX;
}

function scrollDown(): void {
  ui.conversation.scrollTop = ui.conversation.scrollHeight;
}

function showEntry(e: ConsoleEntry): void {
  if (e.topicId !== state.current) return;
  const stick = nearBottom();
  const fresh = entryElement(e);
  const old = shown.get(e.id);
  // An update changes only what differs, so a link or button being clicked stays the node under the pointer.
  const next = old ? morph(old, fresh) : fresh;
  if (!old) ui.conversation.append(next);
  shown.set(e.id, next as HTMLElement);
  if (stick) scrollDown();
}

function setView(view: 'list' | 'new' | 'topic'): void {
  ui.body.dataset.view = view;
  ui.newForm.hidden = view !== 'new';
  ui.conversation.hidden = view !== 'topic';
  ui.composer.hidden = view !== 'topic';
}

function openTopic(id: string): void {
  const topic = state.topics.get(id);
  if (!topic) return;
  state.current = id;
  ui.topicTitle.textContent = topic.title;
  ui.topicMeta.textContent = `${topic.cli} · ${topic.project}`;
  ui.conversation.replaceChildren();
  shown.clear();
  setView('topic');
  for (const e of state.entries.get(id) ?? []) showEntry(e);
  scrollDown();
  renderTopics();
  ui.text.focus();
}

function openNewForm(): void {
  state.current = null;
  ui.topicTitle.textContent = tr('console.newTopic');
  ui.topicMeta.textContent = '';
  setView('new');
  renderTopics();
  ui.first.focus();
}

function fillChoices(): void {
  const fill = (select: HTMLSelectElement, items: { value: string; label: string }[]) => {
    const keep = select.value;
    select.replaceChildren(...items.map((i) => new Option(i.label, i.value)));
    if (items.some((i) => i.value === keep)) select.value = keep;
  };
  fill(ui.project, state.choices.projects.map((p) => ({ value: p.path, label: `${p.label} — ${p.path}` })));
  fill(ui.cli, state.choices.clis.map((c) => ({ value: c.id, label: c.label })));
}

// ── the wire ─────────────────────────────────────────────────────────────────

function upsert(e: ConsoleEntry): void {
  const list = state.entries.get(e.topicId) ?? [];
  const i = list.findIndex((x) => x.id === e.id);
  if (i >= 0) list[i] = e;
  else list.push(e);
  state.entries.set(e.topicId, list);
  showEntry(e);
}

function onMessage(data: unknown): void {
  let raw: unknown;
  try {
    raw = JSON.parse(String(data));
  } catch {
    return;
  }
  const parsed = ConsoleServerMessageSchema.safeParse(raw);
  if (!parsed.success) return;
  const msg = parsed.data;
  switch (msg.type) {
    case 'hello': {
      if (msg.locale && msg.locale !== document.documentElement.lang) localize(msg.locale);
      state.choices = msg.choices;
      state.uploadBytes = msg.uploadBytes;
      state.topics = new Map(msg.topics.map((t) => [t.id, t]));
      state.entries = new Map();
      for (const e of msg.entries) state.entries.set(e.topicId, [...(state.entries.get(e.topicId) ?? []), e]);
      fillChoices();
      renderTopics();
      if (state.current && state.topics.has(state.current)) openTopic(state.current);
      else if (ui.body.dataset.view !== 'new') {
        if (state.topics.size === 0 || window.matchMedia('(min-width: 760px)').matches) openNewForm();
        else setView('list');
      }
      return;
    }
    case 'topic':
      state.topics.set(msg.topic.id, msg.topic);
      state.entries.set(msg.topic.id, state.entries.get(msg.topic.id) ?? []);
      if (msg.requestId && msg.requestId === state.pendingRequest) {
        state.pendingRequest = null;
        openTopic(msg.topic.id);
      } else renderTopics();
      return;
    case 'entry':
      upsert(msg.entry);
      return;
    case 'toast':
      toast(msg.level, msg.text);
      return;
    case 'direct':
      ui.direct.hidden = false;
      ui.direct.replaceChildren();
      withInlineCode(ui.direct, `${tr('console.direct')}: ${msg.text}`);
      return;
    default: {
      const never: never = msg;
      return never;
    }
  }
}

function connect(): void {
  ui.body.dataset.state = 'connecting';
  const socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${CONSOLE_PATHS.ws}`);
  ws = socket;
  socket.addEventListener('open', () => {
    attempt = 0;
    ui.body.dataset.state = 'open';
    ui.status.hidden = true;
  });
  socket.addEventListener('message', (ev) => onMessage(ev.data));
  socket.addEventListener('close', () => {
    if (ws !== socket) return;
    ui.body.dataset.state = 'closed';
    ui.status.hidden = false;
    ui.status.textContent = tr('console.disconnected');
    const delay = RECONNECT.delaysMs[Math.min(attempt++, RECONNECT.delaysMs.length - 1)];
    setTimeout(connect, delay);
  });
}

// ── input ────────────────────────────────────────────────────────────────────

ui.newTopic.addEventListener('click', openNewForm);
ui.back.addEventListener('click', () => {
  state.current = null;
  setView('list');
  renderTopics();
});

ui.newForm.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const text = ui.first.value;
  if (!text.trim()) return;
  const requestId = `r${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  state.pendingRequest = requestId;
  if (send({ type: 'new_topic', requestId, cli: ui.cli.value, project: ui.project.value, text })) ui.first.value = '';
});

const attachments = new ComposerAttachments({
  input: byId<HTMLInputElement>('file'),
  list: byId('attached'),
  toast,
  tr: () => tr,
  capBytes: () => state.uploadBytes,
});

function submitText(): void {
  const text = ui.text.value;
  const refs = attachments.refs();
  // A message waits for its uploads: sent before they land, it would go without them.
  if (attachments.busy) return toast('info', tr('console.attach.uploading'));
  if ((!text.trim() && refs.length === 0) || !state.current) return;
  if (send({ type: 'send', topicId: state.current, text, ...(refs.length ? { attachments: refs } : {}) })) {
    ui.text.value = '';
    attachments.clear();
  }
  autosize();
}

ui.composer.addEventListener('submit', (ev) => {
  ev.preventDefault();
  submitText();
});

// Enter sends, Shift+Enter is a new line; never while an input method is composing (Chinese input uses Enter to commit).
ui.text.addEventListener('keydown', (ev) => {
  if (ev.key === 'Enter' && !ev.shiftKey && !ev.isComposing) {
    ev.preventDefault();
    submitText();
  }
});

function autosize(): void {
  ui.text.style.height = 'auto';
  ui.text.style.height = `${Math.min(ui.text.scrollHeight, 200)}px`;
}
ui.text.addEventListener('input', autosize);

ui.status.textContent = tr('console.connecting');
connect();
