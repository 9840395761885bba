import { describe, expect, it } from 'vitest';
import { IPC_PROTOCOL_VERSION, parseDaemonToWorker, parseWorkerToDaemon, type DaemonToWorker, type WorkerToDaemon } from '../../src/shared/ipc.js';
import { serialize, deserialize } from 'node:v8';

const sid = '0123456789abcdef0123456789abcdef';

const daemonToWorker: DaemonToWorker[] = [
  {
    type: 'init', protocol: IPC_PROTOCOL_VERSION, sessionId: sid, sessionKey: 'om_root::cli_a1b2c3d4e5f60718', home: '/tmp/h',
    cli: 'claude-code', cwd: '/srv/app', env: { FOO: 'bar' }, backend: 'tmux', tmuxSocket: null, tmuxName: 'lmx-01234567',
    resume: { mode: 'resume', nativeSessionId: 'abc' }, display: 'screenshot', cols: 120, rows: 40,
  },
  { type: 'init', protocol: IPC_PROTOCOL_VERSION, sessionId: sid, sessionKey: 'k', home: '/h', cli: { command: 'htop', args: ['-d', '5'], readyPattern: 'F10' }, cwd: '/', env: {}, backend: 'pty', tmuxSocket: 'lmx', tmuxName: 'lmx-01234567', resume: { mode: 'new' }, display: 'text', cols: 80, rows: 24 },
  { type: 'input', turnId: 't1', text: 'look at the 5xx in order-service; 你好 🚀 $(rm -rf /)', requester: { userId: 'ou_1', name: 'Ann' } },
  { type: 'raw_input', turnId: 't2', text: '/compact' },
  { type: 'key', key: 'ctrl_c', by: { userId: 'ou_1' } },
  { type: 'selection_choice', promptId: 'p1', optionIndex: 1 },
  { type: 'set_display', mode: 'hidden' },
  { type: 'capture_now' },
  { type: 'close', mode: 'detach' },
  { type: 'web_revoke' },
  { type: 'init', protocol: IPC_PROTOCOL_VERSION, sessionId: sid, sessionKey: 'k', home: '/h', cli: 'shell', cwd: '/', env: {}, backend: 'tmux', tmuxSocket: null, tmuxName: 'lmx-01234567', resume: { mode: 'attach' }, display: 'screenshot', cols: 80, rows: 24 },
];

const workerToDaemon: WorkerToDaemon[] = [
  { type: 'ready', webPort: 40123, viewToken: 'v'.repeat(43) },
  { type: 'status', status: 'working', screenText: '⏺ Reading file…', detail: 'spinner' },
  { type: 'screen', screen: { ansi: '\u001b[31m你好\u001b[0m $(rm -rf /)\n$ ', cursor: { x: 2, y: 1, visible: true }, cols: 120, rows: 40 }, hash: 'deadbeef' },
  { type: 'selection', promptId: 'p1', title: 'Do you want to proceed?', options: [{ label: 'Yes' }, { label: 'No' }], defaultIndex: 0, kind: 'permission' },
  { type: 'input_delivered', turnId: 't1', evidence: 'transcript', enterRetries: 1 },
  { type: 'input_failed', turnId: 't1', reason: 'text still in the composer after a second Enter' },
  { type: 'input_failed', turnId: 't1', reason: 'a dialog is showing', failure: { code: 'dialog_showing', detail: 'Trust this folder?' } },
  { type: 'final_output', turnId: 't1', text: 'FAKE-REPLY: hi' },
  { type: 'final_output', turnId: 't1', joined: ['t2'], text: 'FAKE-REPLY: tool said: ok' },
  { type: 'cli_identity', nativeSessionId: 'f00', transcriptPath: '/h/.claude/projects/x/f00.jsonl', pid: 123 },
  { type: 'cli_exit', code: 1, logTail: 'panic' },
  { type: 'cli_started', how: 'resumed' },
  { type: 'cli_started', how: 'new', freshReason: 'Shell cannot resume a conversation' },
  { type: 'cli_started', how: 'new', freshReason: 'Shell cannot resume a conversation', freshCode: 'cannot_resume' },
  { type: 'ready', webPort: 0 },
  { type: 'error', code: 'tmux_missing', message: 'tmux is not installed' },
  { type: 'error', code: 'cli_start_failed', message: 'not ready', failure: { code: 'not_ready', detail: 'timeout: no ready screen' } },
  { type: 'heartbeat', at: 1 },
];

describe('IPC schemas', () => {
  it.each(daemonToWorker.map((m) => [m.type, m] as const))('daemon→worker %s round-trips through v8 serialisation', (_t, msg) => {
    const res = parseDaemonToWorker(deserialize(serialize(msg)));
    expect(res).toEqual({ ok: true, msg });
  });

  it.each(workerToDaemon.map((m) => [m.type, m] as const))('worker→daemon %s round-trips through v8 serialisation', (_t, msg) => {
    const res = parseWorkerToDaemon(deserialize(serialize(msg)));
    expect(res).toEqual({ ok: true, msg });
  });

  const malformed: [string, unknown, RegExp][] = [
    ['not an object', 'hello', /message/],
    ['null', null, /message/],
    ['unknown type', { type: 'explode' }, /type/],
    ['missing fields', { type: 'input', text: 'x' }, /turnId|requester/],
    ['wrong field type', { ...daemonToWorker[0], cols: '120' }, /cols/],
    ['out of range', { ...daemonToWorker[0], cols: 5 }, /cols/],
    // Protocol 4 dropped `resize`: nothing in the daemon sent it (the web page sizes the pane over its own socket).
    ['a resize', { type: 'resize', cols: 200, rows: 60 }, /type/],
    ['unknown key name', { type: 'key', key: 'C-c; kill-server' }, /key/],
    ['extra field', { type: 'capture_now', extra: 'x'.repeat(10) }, /extra|Unrecognized/i],
    ['huge text', { type: 'input', turnId: 't', text: 'x'.repeat(2_000_000), requester: { userId: 'u' } }, /text/],
    ['old protocol', { ...daemonToWorker[0], protocol: 0 }, /protocol/],
    ['bad session id', { ...daemonToWorker[0], sessionId: '../../etc' }, /sessionId/],
    // A frame takes one trip (DESIGN §12): no picture ever goes back to a worker.
    ['a drawn frame sent back to a worker', { type: 'rendered', id: 1, png: new Uint8Array(1), timings: { parseMs: 0, paintMs: 0, encodeMs: 0 }, frame: { cols: 1, rows: 1, marginPx: 0, scale: 1 } }, /type/],
  ];
  it.each(malformed)('daemon→worker rejects %s with a reason', (_name, raw, reason) => {
    const res = parseDaemonToWorker(raw);
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.reason).toMatch(reason);
  });

  const badFromWorker: [string, unknown, RegExp][] = [
    ['status not in the set', { type: 'status', status: 'dancing' }, /status/],
    // Workers send screens, never pictures: a PNG from a worker is not part of the protocol.
    ['a picture instead of a screen', { type: 'screenshot', png: new Uint8Array([0x89, 0x50]), hash: 'deadbeef', cols: 80, rows: 24 }, /type/],
    ['a screen without its hash', { type: 'screen', screen: { ansi: '', cursor: { x: 0, y: 0, visible: true }, cols: 80, rows: 24 } }, /hash/],
    ['selection without options', { type: 'selection', promptId: 'p', title: 't', options: [], defaultIndex: 0, kind: 'menu' }, /options/],
    ['huge screen text', { type: 'status', status: 'idle', screenText: 'x'.repeat(300_000) }, /screenText/],
    ['failure code not in the set', { type: 'input_failed', turnId: 't', reason: 'r', failure: { code: 'gremlins' } }, /failure/],
    ['a joined turn without an id', { type: 'final_output', turnId: 't1', joined: [''], text: 'x' }, /joined/],
    ['huge extra field', { type: 'heartbeat', at: 1, junk: 'x'.repeat(100_000) }, /Unrecognized|junk/i],
    ['a screen with a hash that is not hex', { type: 'screen', screen: { ansi: '', cursor: { x: 0, y: 0, visible: true }, cols: 80, rows: 24 }, hash: '$(id)' }, /hash/],
    ['a huge screen', { type: 'screen', screen: { ansi: 'x'.repeat(9 * 1024 * 1024), cursor: { x: 0, y: 0, visible: true }, cols: 80, rows: 24 }, hash: 'deadbeef' }, /ansi/],
    ['an impossible pane', { type: 'screen', screen: { ansi: '', cursor: { x: 0, y: 0, visible: true }, cols: 0, rows: 24 }, hash: 'deadbeef' }, /cols/],
    ['a render request (the worker draws nothing and asks for no drawing)', { type: 'render', id: 1, screen: { ansi: '', cursor: { x: 0, y: 0, visible: true }, cols: 80, rows: 24 }, frame: 'card' }, /type/],
  ];
  it.each(badFromWorker)('worker→daemon rejects %s with a reason', (_name, raw, reason) => {
    const res = parseWorkerToDaemon(raw);
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.reason).toMatch(reason);
  });
});
