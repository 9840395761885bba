// A message while the CLI works (issue 30 item 4): which choices its card offers per CLI, who may tap them, and what a
// tap does in each queue state. Table-driven; the permission rows go through the real router and command table.
import { describe, expect, it } from 'vitest';
import { busyButtons, busyChoices, busyTapOutcome, hurryNotice, hurryWaiting, TAP_REFUSAL, waitsBehindTurn, type QueueState } from '../../src/daemon/sessions/busy-message.js';
import { routeCardAction, type RouterBot } from '../../src/daemon/inbound/router.js';
import type { InboundCardAction } from '../../src/daemon/im/types.js';
import type { Grants } from '../../src/daemon/ground/permissions.js';
import { newSessionCore } from '../../src/daemon/ground/session-core.js';
import type { CliSpec } from '../../src/shared/cli-spec.js';
import { CardActionValueSchema } from '../../src/shared/card-model.js';
import type { HurryHow, HurryOutcome, SessionStatus } from '../../src/shared/ipc.js';
import { translator } from '../../src/shared/i18n.js';

const CUSTOM: CliSpec = { command: 'my-agent', args: [], readyPattern: '> $' };
const EN = translator('en');
const ZH = translator('zh-CN');

describe('the choices a waiting message offers, per CLI', () => {
  it.each([
    // Only where a transcript proves a steered prompt arrived (cli-spec.ts CLI_STEERS): Claude Code and Codex.
    { cli: 'claude-code' as CliSpec, choices: ['steer', 'interrupt'] },
    { cli: 'codex' as CliSpec, choices: ['steer', 'interrupt'] },
    { cli: 'gemini' as CliSpec, choices: ['interrupt'] },
    { cli: 'shell' as CliSpec, choices: ['interrupt'] },
    { cli: CUSTOM, choices: ['interrupt'] },
  ])('$cli → $choices', ({ cli, choices }) => {
    expect(busyChoices(cli)).toEqual(choices);
    const buttons = busyButtons('s1', 'om_2', cli, EN);
    expect(buttons.map((b) => b.value)).toEqual(choices.map((how) => ({ action: 'hurry', sessionId: 's1', turnId: 'om_2', how })));
    // Every button is a value the IM adapter accepts back.
    for (const b of buttons) expect(CardActionValueSchema.safeParse(b.value).success).toBe(true);
  });

  it('labels the buttons in both languages', () => {
    expect(busyButtons('s1', 't', 'claude-code', EN).map((b) => b.label)).toEqual(['Steer now', 'Interrupt and send']);
    expect(busyButtons('s1', 't', 'claude-code', ZH).map((b) => b.label)).toEqual(['立即插话', '打断并发送']);
  });

  it.each([
    ['working', true], ['idle', false], ['starting', false], ['waiting', false], ['limited', false], ['exited', false], ['failed', false],
  ] as [SessionStatus, boolean][])('a turn begun while the CLI is %s waits behind a turn: %s', (status, waits) => {
    expect(waitsBehindTurn(status)).toBe(waits);
  });
});

describe('who may tap them (the router, the command table)', () => {
  const APP = 'cli_app';
  const BOT: RouterBot = { appId: APP, cli: 'claude-code', groupScope: 'thread', allowedUsers: ['ou_alice'], allowedChats: [] };
  const GRANTS: Grants = { talkUsers: ['ou_guest'], talkChats: [], peerBots: [] };
  const s = newSessionCore({ appId: APP, anchorId: 'om_root', scope: 'thread', chatId: 'oc_group', chatType: 'group', cli: 'claude-code', cwd: '/w', ownerId: 'ou_alice', now: 1 });
  it.each([
    { user: 'ou_alice', how: 'steer', kind: 'act' },
    { user: 'ou_alice', how: 'interrupt', kind: 'act' },
    // A person who may only talk here (even the one who wrote the waiting message) cannot stop or steer the turn.
    { user: 'ou_guest', how: 'steer', kind: 'deny' },
    { user: 'ou_guest', how: 'interrupt', kind: 'deny' },
    { user: 'ou_stranger', how: 'interrupt', kind: 'deny' },
  ] as { user: string; how: HurryHow; kind: string }[])('$user taps $how → $kind', ({ user, how, kind }) => {
    const action: InboundCardAction = { kind: 'card_action', appId: APP, eventId: 'e', messageId: 'om_card', chatId: 'oc_group', operatorId: user, value: { action: 'hurry', sessionId: s.id, turnId: 'om_2', how } };
    expect(routeCardAction({ action, bot: BOT, grants: GRANTS, duplicate: false, sessionById: () => s, t: EN }).kind).toBe(kind);
  });
});

describe('what a tap does, by queue state', () => {
  it.each([
    { how: 'steer', queue: 'queued', cli: 'claude-code', out: { kind: 'act', how: 'steer' } },
    { how: 'interrupt', queue: 'queued', cli: 'claude-code', out: { kind: 'act', how: 'interrupt' } },
    { how: 'interrupt', queue: 'queued', cli: 'gemini', out: { kind: 'act', how: 'interrupt' } },
    { how: 'interrupt', queue: 'queued', cli: 'shell', out: { kind: 'act', how: 'interrupt' } },
    // The turn ended meanwhile and the message went: nothing twice.
    { how: 'steer', queue: 'sent', cli: 'claude-code', out: { kind: 'already_sent' } },
    { how: 'interrupt', queue: 'sent', cli: 'claude-code', out: { kind: 'already_sent' } },
    { how: 'interrupt', queue: 'unknown', cli: 'claude-code', out: { kind: 'gone' } },
    // A steer tap on a CLI that never offered it (a stale or forged value): refused whatever the queue holds.
    { how: 'steer', queue: 'queued', cli: 'gemini', out: { kind: 'not_offered' } },
    { how: 'steer', queue: 'sent', cli: 'codex', out: { kind: 'already_sent' } },
    { how: 'steer', queue: 'queued', cli: 'shell', out: { kind: 'not_offered' } },
  ] as { how: HurryHow; queue: QueueState; cli: CliSpec; out: unknown }[])('$how on a $queue message ($cli) → $out.kind', ({ how, queue, cli, out }) => {
    expect(busyTapOutcome(how, queue, cli)).toEqual(out);
  });

  it('passes an act to the worker once, and only an act; a worker that is gone takes the message with it', () => {
    const sends: string[] = [];
    const send = (answer: string) => () => {
      sends.push(answer);
      return answer;
    };
    expect(hurryWaiting('queued', 'claude-code', 'interrupt', send('sent'))).toEqual({ kind: 'act', how: 'interrupt' });
    expect(hurryWaiting('sent', 'claude-code', 'interrupt', send('sent'))).toEqual({ kind: 'already_sent' });
    expect(hurryWaiting('queued', 'claude-code', 'steer', send('sent'))).toEqual({ kind: 'act', how: 'steer' });
    expect(hurryWaiting('queued', 'gemini', 'steer', send('sent'))).toEqual({ kind: 'not_offered' });
    expect(hurryWaiting('queued', 'claude-code', 'interrupt', send('skipped'))).toEqual({ kind: 'gone' });
    expect(sends).toEqual(['sent', 'sent', 'skipped']);
  });

  it('says every refusal and every worker answer in both languages', () => {
    for (const key of Object.values(TAP_REFUSAL)) expect([EN(key), ZH(key)].every((s) => s.length > 0 && !s.includes('{'))).toBe(true);
    const outcomes: HurryOutcome[] = ['steered', 'interrupted', 'waits', 'not_queued'];
    const keys = outcomes.flatMap((o) => (['steer', 'interrupt'] as const).map((how) => hurryNotice(o, how)));
    expect(new Set(keys)).toEqual(new Set(['busy.done.steered', 'busy.done.interrupted', 'busy.steerWaits', 'busy.interruptWaits', 'busy.alreadySent']));
    for (const k of keys) expect(ZH(k)).not.toBe(EN(k));
  });
});
