// On a shell or custom CLI, talking is operating (issue 31 item 6): the warning when talkers reach wider than operators.
import { describe, expect, it } from 'vitest';
import { runsWhatItIsTyped, talkScopeWarnings, talkWiderThanOperate, type TalkScope } from '../../src/shared/talk-scope.js';

const CUSTOM = { command: 'htop', args: [], readyPattern: 'x' };
const bot = (over: Partial<TalkScope>): TalkScope => ({ name: 'ops', cli: 'shell', allowedChats: [], ...over });

describe('talk scope', () => {
  it.each([
    ['shell', true], ['claude-code', false], ['codex', false], ['gemini', false],
  ] as const)('%s runs what it is typed: %s', (cli, runs) => {
    expect(runsWhatItIsTyped(cli)).toBe(runs);
  });
  it('a custom command runs what it is typed', () => expect(runsWhatItIsTyped(CUSTOM)).toBe(true));

  it.each([
    ['shell, operators only', bot({}), null],
    ['shell, an allowed chat', bot({ allowedChats: ['oc_team'] }), 'every member of the 1 chat in allowedChats'],
    ['shell, two allowed chats', bot({ allowedChats: ['oc_a', 'oc_b'] }), 'every member of the 2 chats in allowedChats'],
    ['shell, /grant to people', bot({ talkUsers: ['ou_1', 'ou_2'] }), 'the 2 people given /grant'],
    ['shell, /grant chat', bot({ talkChats: ['oc_c'] }), 'every member of the 1 chat given /grant chat'],
    ['custom, an allowed chat', bot({ cli: CUSTOM, allowedChats: ['oc_team'] }), 'the custom cli "htop"'],
    ['claude-code, an allowed chat (a model decides what runs)', bot({ cli: 'claude-code', allowedChats: ['oc_team'], talkUsers: ['ou_1'] }), null],
  ] as const)('%s', (_name, b, says) => {
    const w = talkWiderThanOperate(b);
    if (says === null) return expect(w).toBeNull();
    expect(w).toContain(says);
    expect(w).toContain('whoever may talk to it may operate it');
    expect(w).toContain('every other session of this larkmux home');
    expect(w).toContain('docs/operations.md');
  });

  it('config warnings name the bot by its place in config.json, one per bot that needs it', () => {
    const warnings = talkScopeWarnings([bot({ name: 'a' }), bot({ name: 'b', allowedChats: ['oc_x'] }), bot({ name: 'c', cli: 'codex', allowedChats: ['oc_x'] })]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^bots\[1\] \("b"\): cli "shell" runs whatever it is sent/);
  });
});
