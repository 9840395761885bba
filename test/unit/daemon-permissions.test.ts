// Table-driven tests of the talk/operate gates (DESIGN §8).
import { describe, expect, it } from 'vitest';
import { canAnswerSelection, mayTypeIntoSelections, canOperate, canTalk, hasLevel, isClosed, isOwner, NO_GRANTS, type Grants, type PermissionBot } from '../../src/daemon/ground/permissions.js';

const OPEN: PermissionBot = { allowedUsers: ['ou_admin'], allowedChats: ['oc_team'] };
const CLOSED: PermissionBot = { allowedUsers: [], allowedChats: [] };
const GRANTS: Grants = { talkUsers: ['ou_guest'], talkChats: ['oc_granted'], peerBots: ['ou_peerbot'] };
const PAIRED: Grants = { ...NO_GRANTS, ownerId: 'ou_owner' };

interface Row {
  name: string;
  bot: PermissionBot;
  grants: Grants;
  chat: string;
  user: string;
  talk: boolean;
  operate: boolean;
}

const rows: Row[] = [
  { name: 'allowedUsers member talks and operates', bot: OPEN, grants: NO_GRANTS, chat: 'oc_any', user: 'ou_admin', talk: true, operate: true },
  { name: 'member of an allowed chat talks only', bot: OPEN, grants: NO_GRANTS, chat: 'oc_team', user: 'ou_stranger', talk: true, operate: false },
  { name: 'stranger elsewhere may do nothing', bot: OPEN, grants: NO_GRANTS, chat: 'oc_other', user: 'ou_stranger', talk: false, operate: false },
  { name: '/grant user talks everywhere but never operates', bot: OPEN, grants: GRANTS, chat: 'oc_other', user: 'ou_guest', talk: true, operate: false },
  { name: '/grant chat lets its members talk, not operate', bot: OPEN, grants: GRANTS, chat: 'oc_granted', user: 'ou_stranger', talk: true, operate: false },
  { name: 'peer bot talks, never operates', bot: OPEN, grants: GRANTS, chat: 'oc_other', user: 'ou_peerbot', talk: true, operate: false },
  { name: 'closed bot (no allowlist, no owner) answers nobody', bot: CLOSED, grants: NO_GRANTS, chat: 'oc_any', user: 'ou_admin', talk: false, operate: false },
  { name: 'paired owner talks and operates', bot: CLOSED, grants: PAIRED, chat: 'oc_any', user: 'ou_owner', talk: true, operate: true },
  { name: 'after pairing, others are still out', bot: CLOSED, grants: PAIRED, chat: 'oc_any', user: 'ou_stranger', talk: false, operate: false },
  { name: 'allowedUsers admin of a paired bot still operates', bot: OPEN, grants: PAIRED, chat: 'oc_any', user: 'ou_admin', talk: true, operate: true },
];

describe('canTalk / canOperate', () => {
  it.each(rows)('$name', (r) => {
    expect(canTalk(r.bot, { chatId: r.chat }, { userId: r.user }, r.grants)).toBe(r.talk);
    expect(canOperate(r.bot, { chatId: r.chat }, { userId: r.user }, r.grants)).toBe(r.operate);
    expect(hasLevel('talk', r.bot, { chatId: r.chat }, { userId: r.user }, r.grants)).toBe(r.talk);
    expect(hasLevel('operate', r.bot, { chatId: r.chat }, { userId: r.user }, r.grants)).toBe(r.operate);
  });
});

describe('isClosed / isOwner', () => {
  it.each([
    { bot: CLOSED, grants: NO_GRANTS, closed: true },
    { bot: CLOSED, grants: PAIRED, closed: false },
    { bot: { allowedUsers: [], allowedChats: ['oc_team'] }, grants: NO_GRANTS, closed: false },
    { bot: OPEN, grants: NO_GRANTS, closed: false },
  ])('closed=$closed', ({ bot, grants, closed }) => {
    expect(isClosed(bot, grants)).toBe(closed);
  });

  it.each([
    { user: 'ou_owner', grants: PAIRED, owner: true },
    { user: 'ou_admin', grants: NO_GRANTS, owner: true },
    { user: 'ou_guest', grants: GRANTS, owner: false },
    { user: 'ou_peerbot', grants: GRANTS, owner: false },
  ])('owner($user)=$owner', ({ user, grants, owner }) => {
    expect(isOwner(OPEN, { userId: user }, grants)).toBe(owner);
    expect(hasLevel('owner', OPEN, { chatId: 'oc_x' }, { userId: user }, grants)).toBe(owner);
  });
});

describe('canAnswerSelection', () => {
  it.each([
    { name: 'the requester (a talker) may answer', user: 'ou_guest', requester: 'ou_guest', ok: true },
    { name: 'an operator may answer anyone’s prompt', user: 'ou_admin', requester: 'ou_guest', ok: true },
    { name: 'another talker may not', user: 'ou_guest', requester: 'ou_other', ok: false },
    { name: 'a requester who lost talk rights may not', user: 'ou_gone', requester: 'ou_gone', ok: false },
    { name: 'no requester known: talkers may not', user: 'ou_guest', requester: undefined, ok: false },
  ])('$name', ({ user, requester, ok }) => {
    expect(canAnswerSelection(OPEN, { chatId: 'oc_other' }, { userId: user }, GRANTS, requester)).toBe(ok);
  });
});

describe('mayTypeIntoSelections (issue 13 finding 8: typed text answers a waiting prompt)', () => {
  it.each([
    { name: 'nothing waiting: any talker types', open: [], user: 'ou_guest', ok: true },
    { name: 'the prompt of my own turn', open: ['ou_guest'], user: 'ou_guest', ok: true },
    { name: "a talker in the owner's topic while the owner's prompt waits", open: ['ou_admin'], user: 'ou_guest', ok: false },
    { name: 'an operator may type into anyone’s prompt', open: ['ou_guest', undefined], user: 'ou_admin', ok: true },
    { name: 'a prompt with no known requester: talkers may not', open: [undefined], user: 'ou_guest', ok: false },
    { name: 'two prompts, one of them not mine', open: ['ou_guest', 'ou_other'], user: 'ou_guest', ok: false },
  ])('$name', ({ open, user, ok }) => {
    expect(mayTypeIntoSelections(open, OPEN, { chatId: 'oc_other' }, { userId: user }, GRANTS)).toBe(ok);
  });
});
