// Every file the daemon persists goes through src/daemon/durable-file.ts, so every kind meets the same policy
// (issue 11): a missing file is a fresh start; an empty, truncated, foreign or newer file is moved aside byte-for-byte,
// reported (load result, `larkmux doctor`) and never written over; a valid file loads what was saved.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InboundDedupe } from '../../src/daemon/inbound/dedupe.js';
import { ConsoleChat } from '../../src/daemon/im/local/console-chat.js';
import { CONSOLE_CHAT_FILE, ConsoleChatFile } from '../../src/daemon/im/local/console-chat-file.js';
import { damagedStoreFiles } from '../../src/platform/tmux-sessions.js';
import { BotState, botStatePath } from '../../src/daemon/ground/pairing.js';
import { emptyRenderState } from '../../src/daemon/ground/render-state.js';
import { newSessionCore } from '../../src/daemon/ground/session-core.js';
import { RenderStateStore, SessionStore, renderStatePath } from '../../src/daemon/ground/store.js';
import { createLogger, type Logger } from '../../src/platform/log.js';
import { larkmuxPaths } from '../../src/platform/paths.js';

const APP = 'cli_0123456789abcdef';
const NOW = 1_800_000_000_000;
const SAVED_SESSION_ID = '0123456789abcdef0123456789abcdef';

type Loaded = { ok: true } | { ok: false; code: string; movedTo: string | null; message: string };

/** One persisted file kind, driven only through its owner's public API. */
interface FileKind {
  name: string;
  path(home: string): string;
  /** Loads a fresh owner; `saved` says whether what save() stores came back. */
  load(home: string, log: Logger): Promise<{ res: Loaded; saved: boolean; save(): Promise<void> }>;
}

const kinds: FileKind[] = [
  {
    name: 'sessions',
    path: (home) => larkmuxPaths(home).sessionStore(APP),
    async load(home, log) {
      const store = new SessionStore({ home, appId: APP, now: () => NOW, log });
      const res = await store.load();
      return {
        res,
        saved: res.ok && res.sessions.some((s) => s.anchorId === 'om_saved'),
        async save() {
          store.put(newSessionCore({ appId: APP, anchorId: 'om_saved', scope: 'thread', chatId: 'oc_g', chatType: 'group', cli: 'shell', cwd: '/w', ownerId: 'ou_a', now: NOW }));
          await store.dispose();
        },
      };
    },
  },
  {
    name: 'card state',
    path: (home) => renderStatePath(home, APP),
    async load(home, log) {
      const store = new RenderStateStore({ home, appId: APP, now: () => NOW, log });
      const res = await store.load();
      return {
        res,
        saved: res.ok && store.get(SAVED_SESSION_ID) !== undefined,
        async save() {
          store.put(emptyRenderState(SAVED_SESSION_ID, NOW));
          await store.dispose();
        },
      };
    },
  },
  {
    name: 'bot state (owner, grants)',
    path: (home) => botStatePath(home, APP),
    async load(home, log) {
      const st = new BotState({ home, appId: APP, now: () => NOW, log });
      const res = await st.load();
      return {
        res,
        saved: st.grants().talkUsers.includes('ou_saved'),
        async save() {
          await st.grantTalk({ user: 'ou_saved' });
        },
      };
    },
  },
  {
    name: 'seen events (dedupe)',
    path: (home) => larkmuxPaths(home).dedupeStore,
    async load(home, log) {
      const d = new InboundDedupe({ path: larkmuxPaths(home).dedupeStore, now: () => NOW, log });
      const res = await d.load();
      return {
        res,
        saved: res.ok && !d.firstSeen(['ev:saved']),
        async save() {
          d.firstSeen(['ev:saved']);
          await d.dispose();
        },
      };
    },
  },
  {
    name: 'console chat',
    path: (home) => join(home, CONSOLE_CHAT_FILE.name),
    async load(home, log) {
      const chat = new ConsoleChat();
      const file = new ConsoleChatFile(home, log);
      const res = await file.attach(chat);
      return {
        res,
        saved: chat.topic('t-saved') !== undefined,
        async save() {
          chat.addTopic({ id: 't-saved', title: '保存 🙂', cli: 'shell', project: '/w', createdAt: NOW });
          await file.dispose();
        },
      };
    },
  },
];

let home: string;
let logDir: string;
let log: Logger;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'lmx-durable-'));
  // The log lives outside home: the tests list home's files.
  logDir = mkdtempSync(join(tmpdir(), 'lmx-durable-log-'));
  log = createLogger({ file: join(logDir, 'daemon.log'), level: 'info' });
});
afterEach(() => {
  try {
    execFileSync('chattr', ['-i', home], { stdio: 'ignore' });
  } catch {}
  rmSync(home, { recursive: true, force: true });
  rmSync(logDir, { recursive: true, force: true });
});

/** The daemon log's error lines about `path` (the logger writes synchronously). */
const errorsLoggedFor = (path: string) =>
  readFileSync(join(logDir, 'daemon.log'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { level: number; file?: string; msg: string })
    .filter((l) => l.level >= 50 && l.file === path);

/** The bytes a real save writes (to damage them in the cases below). */
async function validBytes(kind: FileKind): Promise<string> {
  const first = await kind.load(home, log);
  await first.save();
  const text = readFileSync(kind.path(home), 'utf8');
  rmSync(kind.path(home));
  return text;
}

const damaged: { name: string; bytes: (valid: string) => string; code: string }[] = [
  { name: 'an empty file', bytes: () => '', code: 'corrupt' },
  { name: 'truncated JSON (a write cut at half)', bytes: (v) => v.slice(0, Math.floor(v.length / 2)), code: 'corrupt' },
  { name: 'another kind of file (wrong schema)', bytes: () => '{"format":"something-else","version":1,"records":[],"seen":{}}\n', code: 'corrupt' },
  { name: 'a JSON array', bytes: () => '[1,2,3]\n', code: 'corrupt' },
  { name: 'a file from a newer larkmux', bytes: (v) => v.replace(/"version": ?1/, '"version": 99'), code: 'future_version' },
];

for (const kind of kinds) {
  describe(`${kind.name}: one durable-file policy`, () => {
    it('missing: a fresh start, nothing written by the load, saves come back after a restart', async () => {
      const first = await kind.load(home, log);
      expect(first.res).toMatchObject({ ok: true });
      expect(readdirSync(home)).toEqual([]);
      await first.save();
      const again = await kind.load(home, log);
      expect(again.res).toMatchObject({ ok: true });
      expect(again.saved).toBe(true);
    });

    it('valid: loads what was saved, keeps nothing aside', async () => {
      const bytes = await validBytes(kind);
      writeFileSync(kind.path(home), bytes);
      const loaded = await kind.load(home, log);
      expect(loaded.res).toMatchObject({ ok: true });
      expect(loaded.saved).toBe(true);
      expect(damagedStoreFiles(home)).toEqual([]);
    });

    for (const c of damaged) {
      it(`${c.name}: moved aside byte-for-byte, reported, and the next save writes a fresh file beside it`, async () => {
        const bytes = c.bytes(await validBytes(kind));
        writeFileSync(kind.path(home), bytes);
        const loaded = await kind.load(home, log);
        expect(loaded.res).toMatchObject({ ok: false, code: c.code });
        if (loaded.res.ok) return;
        const aside = loaded.res.movedTo!;
        expect(basename(aside)).toMatch(new RegExp(`^${basename(kind.path(home)).replace(/\./g, '\\.')}\\.corrupt-\\d{4}-\\d\\d-\\d\\dT`));
        expect(loaded.res.message).toContain(`kept aside as ${aside}`);
        expect(readFileSync(aside, 'utf8')).toBe(bytes);
        // Reported: in the daemon log, and `larkmux doctor` lists it.
        expect(errorsLoggedFor(kind.path(home)).map((l) => l.msg)).toEqual([expect.stringMatching(/not loaded/)]);
        expect(damagedStoreFiles(home)).toEqual([aside]);
        expect(loaded.saved).toBe(false);

        await loaded.save();
        expect(readFileSync(aside, 'utf8')).toBe(bytes);
        const again = await kind.load(home, log);
        expect(again.res).toMatchObject({ ok: true });
        expect(again.saved).toBe(true);
      });
    }

    // Linux, ext4/xfs-like filesystems and root only: `chattr +i` is the one way here to make the move aside fail.
    it.skipIf(!canMakeImmutable())('damaged and impossible to move aside: reported, and never written over', async () => {
      const bytes = (await validBytes(kind)).slice(0, 20);
      writeFileSync(kind.path(home), bytes);
      execFileSync('chattr', ['+i', home]);
      const loaded = await kind.load(home, log);
      execFileSync('chattr', ['-i', home]);
      expect(loaded.res).toMatchObject({ ok: false, code: 'corrupt', movedTo: null });
      if (loaded.res.ok) return;
      expect(loaded.res.message).toContain('not written over');
      await loaded.save();
      expect(readFileSync(kind.path(home), 'utf8')).toBe(bytes);
    });
  });
}

function canMakeImmutable(): boolean {
  const probe = join(tmpdir(), `lmx-chattr-probe-${process.pid}`);
  try {
    mkdirSync(probe, { recursive: true });
    execFileSync('chattr', ['+i', probe], { stdio: 'ignore' });
    execFileSync('chattr', ['-i', probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}
