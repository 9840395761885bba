// The web terminal page: connects to the session's worker, shows the pane in xterm.js, sends keys (write only);
// scrolling back shows the pane's history in the page's own view (history-view.ts), never scrolling the shared pane.
// Sizing (text size, fit-to-width on phones, the readable text view) is terminal-sizing.ts.
import '@xterm/xterm/css/xterm.css';
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import { XTERM_THEME } from '../shared/theme.js';
import {
  WEBTERM_CLOSE, WEBTERM_PROTOCOL_VERSION, WEBTERM_WS_PATH, encodeFrame, parseServerFrame, type ClientFrame, type InfoMessage,
} from '../shared/webterm-protocol.js';
import { HistoryView } from './history-view.js';
import { localizePage, pageLocale } from './i18n.js';
import { TerminalSizing } from './terminal-sizing.js';
import { TextView } from './text-view.js';
import { buildToolbar } from './toolbar.js';
import { buildViewControls } from './view-controls.js';
import { isPhoneScreen, loadViewPrefs } from './view-prefs.js';

/** Reconnects after an unexpected drop: a worker restart takes a few seconds; after that a person should decide. */
const RECONNECT = { delaysMs: [500, 1_000, 2_000, 4_000, 8_000] } as const;

const locale = pageLocale(document.cookie, navigator.language);
const t = localizePage(document, locale);

const CLOSE_TEXT: Record<number, string> = {
  [WEBTERM_CLOSE.revoked]: t('web.closed.revoked'),
  [WEBTERM_CLOSE.paneGone]: t('web.closed.paneGone'),
  [WEBTERM_CLOSE.shutdown]: t('web.closed.shutdown'),
};

function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`page is missing #${id}`);
  return el as T;
}

const body = document.body;
const viewport = byId('viewport');
const banner = byId('banner');
const status = byId('status');
const statusText = byId('status-text');
const reconnectButton = byId<HTMLButtonElement>('reconnect');

const term = new Terminal({
  cols: 80,
  rows: 24,
  // No local scrollback: tmux redraws in place, so scrolling back uses the history view (pane history from the worker).
  scrollback: 0,
  allowProposedApi: true, // needed by the Unicode 11 addon
  theme: XTERM_THEME,
  fontFamily: '"DejaVu Sans Mono", "Noto Sans Mono", "Cascadia Mono", Menlo, Consolas, monospace',
  fontSize: 15,
  cursorBlink: false,
});
const fit = new FitAddon();
term.loadAddon(fit);
term.loadAddon(new Unicode11Addon());
term.unicode.activeVersion = '11'; // the same character widths as tmux and the screenshots
term.open(byId('term-host'));

let socket: WebSocket | null = null;
let readOnly = true;
let attempts = 0;

function send(frame: ClientFrame): void {
  if (socket?.readyState === WebSocket.OPEN) socket.send(encodeFrame(frame));
}

const liveButton = byId<HTMLButtonElement>('live');
liveButton.textContent = t('webTerm.backToLive');
const history = new HistoryView({
  view: byId('history'),
  live: liveButton,
  request: () => send({ t: 'history' }),
  font: () => ({ family: String(term.options.fontFamily), sizePx: Number(term.options.fontSize) }),
});
term.attachCustomWheelEventHandler((ev) => {
  // A writer's program that asked for the mouse (vim, htop…) gets the wheel from xterm as mouse reports, typed input.
  if (!readOnly && term.modes.mouseTrackingMode !== 'none') return true;
  if (!history.onWheel(ev)) ev.preventDefault(); // never turned into arrow keys
  return false;
});
history.attachTouch(viewport);
term.onData((d) => {
  if (!readOnly) send({ t: 'in', d });
});
buildToolbar(byId('toolbar'), t, (bytes) => {
  if (!readOnly) send({ t: 'in', d: bytes });
});

const storage = (() => {
  try {
    return window.localStorage;
  } catch {
    return null; // storage denied: preferences last for this page only
  }
})();
const showSizing = buildViewControls(byId('view-controls'), locale, {
  stepFont: (d) => sizing.stepFont(d),
  setFit: (on) => sizing.setFit(on),
  setText: (on) => sizing.setText(on),
});
const textViewHost = byId('text-view');
const textView = new TextView(textViewHost, term);
const sizing = new TerminalSizing(term, fit, send, loadViewPrefs(storage), isPhoneScreen(window), storage, (s) => {
  body.dataset.fit = s.fitting ? 'on' : 'off';
  body.dataset.fontSize = String(s.fontSize);
  showSizing(s);
  textViewHost.style.fontSize = `${s.fontSize}px`;
  const view = s.textMode ? 'text' : 'terminal';
  if (body.dataset.view !== view) {
    body.dataset.view = view;
    textView.show(s.textMode);
    requestAnimationFrame(() => sizing.layout()); // the terminal's box changed size
  }
});

function showStatus(text: string | null, canReconnect = false): void {
  status.hidden = text === null;
  statusText.textContent = text ?? '';
  reconnectButton.hidden = !canReconnect;
}

function applyInfo(info: InfoMessage): void {
  readOnly = info.readOnly;
  term.options.disableStdin = readOnly;
  body.dataset.mode = readOnly ? 'read' : 'write';
  body.dataset.cols = String(info.cols);
  body.dataset.rows = String(info.rows);
  banner.hidden = !readOnly;
  if (info.protocol !== WEBTERM_PROTOCOL_VERSION) showStatus(t('web.updated'));
  sizing.info(info);
}

function connect(): void {
  const url = new URL(WEBTERM_WS_PATH, location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  url.search = location.search; // a view token in the page URL also opens the socket
  url.hash = '';
  const ws = new WebSocket(url);
  ws.binaryType = 'arraybuffer';
  socket = ws;
  body.dataset.state = 'connecting';
  ws.onopen = () => {
    attempts = 0;
    showStatus(null);
    sizing.connected();
    send({ t: 'hello', cols: term.cols, rows: term.rows });
  };
  ws.onmessage = (ev: MessageEvent<ArrayBuffer | string>) => {
    if (typeof ev.data !== 'string') {
      term.write(new Uint8Array(ev.data));
      return;
    }
    const parsed = parseServerFrame(ev.data);
    if (!parsed.ok) return;
    if (parsed.frame.t === 'history') return history.show(parsed.frame.text);
    applyInfo(parsed.frame);
    body.dataset.state = 'open';
  };
  ws.onclose = (ev) => {
    if (socket !== ws) return;
    socket = null;
    body.dataset.state = 'closed';
    const known = CLOSE_TEXT[ev.code];
    const delay = RECONNECT.delaysMs[attempts];
    if (ev.code === WEBTERM_CLOSE.revoked || ev.code === WEBTERM_CLOSE.paneGone || delay === undefined) {
      showStatus(known ?? t('web.disconnectedFinal'), true);
      return;
    }
    attempts++;
    showStatus(t('web.reconnecting', { reason: known ?? t('web.disconnected') }));
    setTimeout(connect, delay);
  };
}

reconnectButton.addEventListener('click', () => {
  attempts = 0;
  connect();
});
window.addEventListener('resize', () => sizing.layout());
connect();
