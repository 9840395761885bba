import { describe, expect, it } from 'vitest';
import { GrantArgSchema, grantTargetOf } from '../../src/daemon/commands/grant-target.js';
import { COMMAND_TABLE } from '../../src/daemon/commands/index.js';

describe('grantTargetOf: what /grant and /revoke change and how the reply names it', () => {
  it.each([
    { raw: 'chat', target: { chat: 'oc_here' }, who: 'everyone here' },
    { raw: '  chat ', target: { chat: 'oc_here' }, who: 'everyone here' },
    { raw: 'ou_bob1', target: { user: 'ou_bob1' }, who: 'ou_bob1' },
    { raw: 'ou_A-b_9xyz', target: { user: 'ou_A-b_9xyz' }, who: 'ou_A-b_9xyz' },
  ])('$raw → $who', ({ raw, target, who }) => {
    expect(grantTargetOf(GrantArgSchema.parse(raw), 'oc_here', 'everyone here')).toEqual({ target, who });
  });
  it.each(['', 'oc_chat', 'ou_x', 'chat; rm -rf /', 'ou_$(id)'])('%j is refused before anything changes', (raw) => {
    expect(GrantArgSchema.safeParse(raw).success).toBe(false);
  });
});

describe('command declarations: what an absent field means', () => {
  const byName = (n: string) => COMMAND_TABLE.byName.get(n)!;
  it.each([
    { name: 'close', aliases: [] },
    { name: 'grant', aliases: [] },
    { name: 'revoke', aliases: [] },
    { name: 'screen', aliases: ['screenshot'] },
  ])('/$name answers to $aliases besides its name', ({ name, aliases }) => {
    expect(byName(name).aliases).toEqual(aliases);
  });
  it.each(['close', 'stop', 'diff', 'screen'])('/%s takes no argument: text after it is ignored, not refused', (name) => {
    expect(byName(name).args.safeParse('whatever $(id) 你好').success).toBe(true);
  });
  it('/grant and /revoke keep their usage lines', () => {
    expect([byName('grant').usage, byName('revoke').usage]).toEqual(['/grant <open_id>|chat', '/revoke <open_id>|chat']);
  });
});
