// The pane frames of the host agent protocol (`larkmux where|send` in a host's pane): what the daemon accepts from an
// agent and what the agent accepts back. A frame that names a session, or bends the pane's shape, is not one.
import { describe, expect, it } from 'vitest';
import { SEND_REQUEST_LIMITS } from '../../src/shared/control-protocol.js';
import { parseAgentToDaemon, parseDaemonToAgent } from '../../src/shared/host-agent-protocol.js';

const pane = { tmuxSession: 'lmx-0123abcd', paneId: '%3', tty: '/dev/pts/7' };

describe('pane_ask (agent → daemon)', () => {
  const rows: [string, unknown, boolean][] = [
    ['where', { kind: 'pane_ask', id: 0, pane, ask: { cmd: 'where' } }, true],
    ['send text', { kind: 'pane_ask', id: 7, pane, ask: { cmd: 'send', items: [{ kind: 'text', text: '中文 $(x) 🙂' }] } }, true],
    ['a session named beside the pane', { kind: 'pane_ask', id: 1, pane, ask: { cmd: 'where' }, session: 'f'.repeat(32) }, false],
    ['a session named inside the pane', { kind: 'pane_ask', id: 1, pane: { ...pane, session: 'f'.repeat(32) }, ask: { cmd: 'where' } }, false],
    ['a session named in the ask', { kind: 'pane_ask', id: 1, pane, ask: { cmd: 'where', session: 'x' } }, false],
    ['a pane id that is not tmux\'s', { kind: 'pane_ask', id: 1, pane: { ...pane, paneId: '3' }, ask: { cmd: 'where' } }, false],
    ['another control command', { kind: 'pane_ask', id: 1, pane, ask: { cmd: 'stop' } }, false],
    ['send with no items', { kind: 'pane_ask', id: 1, pane, ask: { cmd: 'send', items: [] } }, false],
    ['send past the item cap', { kind: 'pane_ask', id: 1, pane, ask: { cmd: 'send', items: Array.from({ length: SEND_REQUEST_LIMITS.items + 1 }, () => ({ kind: 'text', text: 'x' })) } }, false],
    ['text past the cap', { kind: 'pane_ask', id: 1, pane, ask: { cmd: 'send', items: [{ kind: 'text', text: 'x'.repeat(SEND_REQUEST_LIMITS.textChars + 1) }] } }, false],
    ['a negative id', { kind: 'pane_ask', id: -1, pane, ask: { cmd: 'where' } }, false],
  ];
  it.each(rows)('%s', (_name, frame, ok) => {
    expect(parseAgentToDaemon(frame).ok).toBe(ok);
  });
});

describe('pane_answer (daemon → agent)', () => {
  const rows: [string, unknown, boolean][] = [
    ['not in a pane (where)', { kind: 'pane_answer', id: 0, answer: { ok: true, where: { inPane: false } } }, true],
    ['sent', { kind: 'pane_answer', id: 0, answer: { ok: true, send: { inPane: true, session: 's', outcomes: [{ item: 'text', ok: true, messageId: 'om_1' }] } } }, true],
    ['an error', { kind: 'pane_answer', id: 2, answer: { ok: false, error: 'the daemon gave up' } }, true],
    ['a where answer missing its pane', { kind: 'pane_answer', id: 0, answer: { ok: true, where: { inPane: true, session: 's' } } }, false],
    ['an error past 1024 characters', { kind: 'pane_answer', id: 0, answer: { ok: false, error: 'x'.repeat(1025) } }, false],
  ];
  it.each(rows)('%s', (_name, frame, ok) => {
    expect(parseDaemonToAgent(frame).ok).toBe(ok);
  });
});
