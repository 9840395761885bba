// Timing a session the way a user sees it, shared by `bench -- latency` and `bench -- remote`: a message → its text in
// the pane (read through a read-only tmux control client on whichever tmux server holds the pane) and → the command
// running; a screen change → the card image that shows it (the pixel colour of row 0 in the uploaded PNG).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { FakeFeishu } from '../../test/support/fake-feishu/index.js';
import { cardsFor, textsIn } from '../../test/support/cards.js';

/** A turn of `date >> file` ends well within this; a stuck turn fails the run instead of hanging it. */
export const TURN_TIMEOUT_MS = 30_000;
/** Lets the final patches of the tick command land before the recorded calls are read. */
const SETTLE_MS = 4_000;
/** Truecolor backgrounds a tick paints row 0 with; pure channels so the screenshot's pixel says which one it is. */
const TICK_COLOURS = ['255;0;0', '0;255;0', '0;0;255', '255;255;0', '255;0;255', '0;255;255', '255;255;255'] as const;

export const log = (s: string) => process.stderr.write(`${s}\n`);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function quantile(xs: number[], q: number): number {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}
export const round = (n: number) => Math.round(n * 10) / 10;

export async function waitFor<T>(what: string, fn: () => T | undefined | null | false, timeoutMs: number = TURN_TIMEOUT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

export const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

/** Watches a pane's output through a read-only tmux control client and notes when each marker first shows up. */
export class PaneWatcher {
  private readonly child: ChildProcess;
  private buffer = '';
  private readonly waiting = new Map<string, (at: number) => void>();

  constructor(socket: string, session: string) {
    this.child = spawn('tmux', ['-L', socket, '-C', 'attach-session', '-t', session, '-f', 'read-only,ignore-size'], { stdio: ['pipe', 'pipe', 'ignore'] });
    let partial = '';
    this.child.stdout!.setEncoding('latin1');
    this.child.stdout!.on('data', (chunk: string) => {
      const now = Date.now();
      partial += chunk;
      const lines = partial.split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        const m = /^%output %\d+ (.*)$/.exec(line);
        if (!m) continue;
        // Control mode escapes bytes below 32 and the backslash as \ooo.
        this.buffer = (this.buffer + m[1]!.replace(/\\(\d{3})/g, (_s, o: string) => String.fromCharCode(parseInt(o, 8)))).slice(-65_536);
      }
      for (const [marker, done] of this.waiting) {
        if (this.buffer.includes(marker)) {
          this.waiting.delete(marker);
          done(now);
        }
      }
    });
  }

  /** Resolves with the time `marker` appears in the pane's output (registered before the text is sent). */
  expect(marker: string): Promise<number> {
    return new Promise((resolve) => this.waiting.set(marker, resolve));
  }

  dispose(): void {
    this.child.stdin!.end();
    this.child.kill();
  }
}

/** One chat's session under measurement: where its messages go and where its pane and files are. */
export interface TimedChat {
  fake: FakeFeishu;
  appId: string;
  chatId: string;
  watcher: PaneWatcher;
  /** A folder the session's commands write to, readable here (the session's host shares this file system). */
  dir: string;
  /** Names this chat in progress lines. */
  label: string;
}

/**
 * Message → pane (the typed text shows) and → the command runs (its own timestamp), `count` messages `pauseMs` apart;
 * each waits for its answer before the next. Call again on the same chat to continue its numbering.
 */
export function messageTimer(chat: TimedChat): (count: number, pauseMs: number) => Promise<{ toPane: number[]; toRun: number[] }> {
  const stamps = `${chat.dir}/stamps-${chat.chatId}.txt`;
  let sent = 0;
  return async (count, pauseMs) => {
    const toPane: number[] = [];
    const toRun: number[] = [];
    for (let i = 0; i < count; i++) {
      sent += 1;
      const marker = `#LMX${sent}Q`;
      if (pauseMs) await sleep(pauseMs);
      const answersBefore = textsIn(chat.fake, chat.appId, chat.chatId).length;
      const seen = chat.watcher.expect(marker);
      const t0 = Date.now();
      await chat.fake.injectMessage({ chatType: 'p2p', appId: chat.appId, chatId: chat.chatId, text: `date +%s%N >> ${stamps} ${marker}` });
      toPane.push((await seen) - t0);
      const n = sent;
      const stamp = await waitFor(`${chat.label} stamp ${n}`, () => lines(stamps)[n - 1]);
      toRun.push(Number(stamp) / 1e6 - t0);
      await waitFor(`${chat.label} answer ${n}`, () => textsIn(chat.fake, chat.appId, chat.chatId).length > answersBefore);
      log(`${chat.label} message ${n} (pause ${pauseMs} ms): pane ${toPane[i]} ms, ran ${round(toRun[i]!)} ms`);
    }
    return { toPane, toRun };
  };
}

/** Pixel rows of one colour that make a painted row (glyph strokes in a column are thinner than a cell's height). */
const MIN_RUN_PX = 6;

/**
 * Which tick colour row 0 of a screenshot shows (-1: none of them). The image is cropped to the pane's content plus a
 * margin, so row 0 is not at a fixed height: it is the first run, from the top of the middle column, of a pure colour.
 */
async function tickColourOf(png: Buffer): Promise<number> {
  const img = await loadImage(png);
  const canvas = createCanvas(img.width, img.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const column = ctx.getImageData(Math.floor(img.width / 2), 0, 1, img.height).data;
  let run = { key: '', length: 0 };
  for (let y = 0; y < img.height; y++) {
    const px = [column[y * 4]!, column[y * 4 + 1]!, column[y * 4 + 2]!];
    const pure = px.every((c) => c > 200 || c < 50);
    const key = pure ? px.map((c) => (c > 128 ? '255' : '0')).join(';') : '';
    run = key && key === run.key ? { key, length: run.length + 1 } : { key, length: 1 };
    const colour = TICK_COLOURS.indexOf(run.key as (typeof TICK_COLOURS)[number]);
    if (colour >= 0 && run.length >= MIN_RUN_PX) return colour;
  }
  return -1;
}

/**
 * Screen change → card: one command repaints row 0 in a new colour `ticks` times at irregular moments while it runs;
 * each change is timed to the first card patch whose image shows it or a later one (a superseded frame is not lost time).
 */
export async function screenToCard(chat: TimedChat, ticks: number): Promise<{ toCard: number[]; neverShown: number; shownPatches: number }> {
  const { fake, appId, chatId } = chat;
  const tickFile = `${chat.dir}/ticks-${chatId}.txt`;
  const palette = TICK_COLOURS.map((c) => `'${c}'`).join(' ');
  const cmd = `C=(${palette}); clear; for i in $(seq 1 ${ticks}); do sleep 0.$((RANDOM%9+1)); [ $((RANDOM%2)) = 1 ] && sleep 1; c=$((i%${TICK_COLOURS.length})); t=$(date +%s%N); printf '\\e[H\\e[48;2;%sm%120s\\e[0m' "\${C[c]}" ''; echo "$t $c" >> ${tickFile}; done`;
  const run = await fake.injectMessage({ chatType: 'p2p', appId, chatId, text: cmd });
  const card = await waitFor(`${chat.label} tick card`, () => cardsFor(fake, appId, run.messageId)[0]);
  await waitFor(`${chat.label} all ticks`, () => lines(tickFile).length >= ticks, 120_000);
  await sleep(SETTLE_MS);

  const tickList = lines(tickFile).map((l) => {
    const [t, c] = l.split(' ');
    return { at: Number(t) / 1e6, colour: Number(c) };
  });
  // Upload times by image key: successful upload calls pair, in order, with the recorded uploads.
  const uploadCalls = fake.calls.filter((c) => c.endpoint === 'upload' && c.status === 200 && c.code === 0);
  const uploadedAt = new Map(fake.uploads.map((u, i) => [u.imageKey, uploadCalls[i]?.at ?? Number.NaN]));
  // Each successful patch of the card pairs, in order, with its content history (history[0] is the send).
  const patches = fake.calls.filter((c) => c.endpoint === 'patch' && c.status === 200 && c.messageId === card.messageId);
  const shown: Array<{ at: number; tick: number }> = [];
  for (let i = 0; i < patches.length; i++) {
    const content = card.history[i + 1] as Record<string, unknown> | undefined;
    const key = JSON.stringify(content ?? {}).match(/"img_key":"([^"]+)"/)?.[1];
    const upload = key ? fake.uploads.find((u) => u.imageKey === key) : undefined;
    if (!key || !upload) continue;
    const colour = await tickColourOf(upload.bytes);
    const up = uploadedAt.get(key) ?? Number.NaN;
    // The newest tick of that colour that happened before the image was uploaded.
    let tick = -1;
    tickList.forEach((t, k) => { if (t.colour === colour && t.at <= up) tick = k; });
    if (tick >= 0) shown.push({ at: patches[i]!.at, tick });
  }
  const toCard: number[] = [];
  let neverShown = 0;
  tickList.forEach((t, k) => {
    const first = shown.find((s) => s.tick >= k && s.at >= t.at);
    if (first) toCard.push(first.at - t.at);
    else neverShown += 1;
  });
  return { toCard, neverShown, shownPatches: shown.length };
}
