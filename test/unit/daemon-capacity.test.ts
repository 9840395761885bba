import { describe, expect, it } from 'vitest';
import { CAPACITY, nextIdleDetachAt, planCapacity, type CapacityAction, type Caps, type HostSession, type WaitingLaunch } from '../../src/daemon/sessions/capacity.js';

type Opts = Partial<Omit<HostSession, 'id' | 'status' | 'lastActivityAt'>>;
const s = (id: string, status: HostSession['status'], at: number, o: Opts = {}): HostSession => ({
  id, status, lastActivityAt: at, group: 'bot', worker: true, cliRunning: true, pinned: false, ...o,
});
/** A CLI running in tmux with no worker. */
const detached = (id: string, at: number, o: Opts = {}) => s(id, 'idle', at, { worker: false, ...o });
/** A session whose CLI was stopped (or a new one): no worker, no CLI. */
const asleep = (id: string, at: number, o: Opts = {}) => s(id, 'exited', at, { worker: false, cliRunning: false, ...o });
const w = (id: string, group = 'bot'): WaitingLaunch => ({ id, group });
const caps = (maxLiveWorkers: number, maxLiveClis: number): Caps => ({ maxLiveWorkers, maxLiveClis });

const plan = (sessions: HostSession[], waiting: WaitingLaunch[], c: Caps | Record<string, Caps>) =>
  planCapacity({ sessions, waiting, caps: (g) => ('maxLiveWorkers' in c ? (c as Caps) : (c as Record<string, Caps>)[g]!) });

const six = [1, 2, 3, 4, 5, 6].map((i) => s(`s${i}`, 'idle', i));
/** Four sessions in the middle of a turn: they hold their workers and CLIs. */
const busyFour = [1, 2, 3, 4].map((i) => s(`b${i}`, 'working', 100 + i));
/** `n` new sessions waiting to launch (no worker, no CLI), in arrival order. */
const backlog = (n: number) => Array.from({ length: n }, (_, i) => asleep(`q${i}`, 200 + i));

describe('planCapacity', () => {
  it.each<[string, HostSession[], WaitingLaunch[], Caps | Record<string, Caps>, CapacityAction[]]>([
    ['under both caps: nothing', [s('a', 'idle', 1), s('b', 'idle', 2)], [], caps(2, 3), []],
    ['one worker too many: the least recent idle one detaches', [s('a', 'idle', 1), s('b', 'idle', 2), s('c', 'idle', 3)], [], caps(2, 3), [{ kind: 'detach', id: 'a' }]],
    ['busy sessions are never touched', [s('a', 'working', 1), s('b', 'waiting', 2), s('c', 'idle', 3)], [], caps(1, 1), [{ kind: 'stop', id: 'c', via: 'worker' }]],
    ['starting and rate-limited sessions are busy too', [s('a', 'starting', 1), s('b', 'limited', 2)], [], caps(1, 1), []],
    ['a pinned session (a message on its way) is never chosen', [s('a', 'idle', 1, { pinned: true }), s('b', 'idle', 2)], [], caps(1, 5), [{ kind: 'detach', id: 'b' }]],
    ['too many CLIs: least recent stopped; that also frees a worker', [s('a', 'idle', 1), s('b', 'idle', 2), s('c', 'idle', 3), s('d', 'working', 4)], [], caps(2, 3), [{ kind: 'stop', id: 'a', via: 'worker' }, { kind: 'detach', id: 'b' }]],
    ['a detached CLI is stopped through tmux, without a worker', [detached('a', 1), detached('b', 2), s('c', 'idle', 3)], [], caps(1, 2), [{ kind: 'stop', id: 'a', via: 'tmux' }]],
    ['stopped CLIs count for nothing', [asleep('a', 1), s('b', 'idle', 2)], [], caps(1, 1), []],
    ['six idle sessions, caps 2/3', six, [], caps(2, 3), [{ kind: 'stop', id: 's1', via: 'worker' }, { kind: 'stop', id: 's2', via: 'worker' }, { kind: 'stop', id: 's3', via: 'worker' }, { kind: 'detach', id: 's4' }]],
    // Actions under way: not chosen again, and counted as done when planning more.
    ['a stop under way is not repeated and counts as done', [s('a', 'idle', 1, { underway: 'stop' }), s('b', 'idle', 2), s('c', 'idle', 3)], [], caps(2, 2), []],
    ['a detach under way frees a worker but not a CLI', [s('a', 'idle', 1, { underway: 'detach' }), s('b', 'idle', 2), s('c', 'idle', 3)], [], caps(2, 2), [{ kind: 'stop', id: 'b', via: 'worker' }]],
    // Launches: admitted while the caps, counted with what still exists, allow.
    ['a new session launches when there is room', [asleep('n', 9)], [w('n')], caps(1, 1), [{ kind: 'launch', id: 'n' }]],
    ['a new session at full caps: an idle one makes room first, the launch waits for it', [s('a', 'idle', 1), asleep('n', 9)], [w('n')], caps(1, 1), [{ kind: 'stop', id: 'a', via: 'worker' }]],
    ['a launch waits while a stop is still under way', [s('a', 'idle', 1, { underway: 'stop' }), asleep('n', 9)], [w('n')], caps(1, 1), []],
    ['after the stop the launch goes', [asleep('a', 1), asleep('n', 9)], [w('n')], caps(1, 1), [{ kind: 'launch', id: 'n' }]],
    ['a detached CLI re-attaches with a worker slot only', [detached('d', 1), s('b', 'working', 2)], [w('d')], caps(2, 2), [{ kind: 'launch', id: 'd' }]],
    ['a re-attach that needs the worker slot of an idle session detaches it (its CLI stays)', [detached('d', 5), s('b', 'idle', 2)], [w('d')], caps(1, 2), [{ kind: 'detach', id: 'b' }]],
    ['all busy: launches wait and nothing is touched', [s('a', 'working', 1), s('b', 'working', 2), asleep('n', 9)], [w('n')], caps(2, 4), []],
    ['a waiting session is never evicted for another', [detached('d', 1), asleep('n', 9)], [w('d'), w('n')], caps(1, 1), [{ kind: 'launch', id: 'd' }]],
    // Two worker slots once a's worker goes: n1 and n2 fit with a's CLI (3); n3 waits for a slot, and costs nothing yet.
    ['a burst: as many launch as fit, the rest wait; room is made for the ones a worker slot can take', [s('a', 'idle', 1), asleep('n1', 5), asleep('n2', 6), asleep('n3', 7)], [w('n1'), w('n2'), w('n3')], caps(2, 3), [{ kind: 'launch', id: 'n1' }, { kind: 'detach', id: 'a' }]],
    // Issue 31 item 15: queued launches the worker cap cannot admit yet must not count against the CLI cap.
    ['a backlog behind busy workers stops no idle CLI (caps 4/8, 6 CLIs live)', [...busyFour, detached('d1', 1), detached('d2', 2), ...backlog(6)], backlog(6).map((b) => w(b.id)), caps(4, 8), []],
    ['the issue\'s backlog: 64 launches behind 4 busy workers, 8 CLIs live: none is stopped', [...busyFour, ...[1, 2, 3, 4].map((i) => detached(`d${i}`, i)), ...backlog(64)], backlog(64).map((b) => w(b.id)), caps(4, 8), []],
    ['one worker slot free: room for one launch only (one CLI stopped, not five)', [...busyFour.slice(0, 3), s('i', 'idle', 1), ...[2, 3, 4, 5].map((i) => detached(`d${i}`, i)), ...backlog(10)], backlog(10).map((b) => w(b.id)), caps(4, 8), [{ kind: 'stop', id: 'i', via: 'worker' }]],
    ['a worker slot free and a CLI to spare: the next launch goes, nothing is stopped', [...busyFour.slice(0, 3), detached('d1', 1), ...backlog(5)], backlog(5).map((b) => w(b.id)), caps(4, 8), [{ kind: 'launch', id: 'q0' }]],
    ['a waiting session that already has a worker needs no slot', [s('a', 'idle', 1), s('b', 'idle', 2)], [w('b')], caps(2, 2), []],
    ['an adopted CLI (a person\'s own) is never stopped: the next least recent one is, its worker may detach', [s('a', 'idle', 1, { keepCli: true }), s('b', 'idle', 2), s('c', 'idle', 3)], [], caps(1, 2), [{ kind: 'stop', id: 'b', via: 'worker' }, { kind: 'detach', id: 'a' }]],
    ['a detached adopted CLI stays even over the cap', [detached('a', 1, { keepCli: true }), s('b', 'working', 2)], [], caps(2, 1), []],
    ['caps are per bot', [s('a', 'idle', 1, { group: 'x' }), s('b', 'idle', 2, { group: 'x' }), s('c', 'idle', 1, { group: 'y' }), s('d', 'idle', 2, { group: 'y' })], [], { x: caps(1, 5), y: caps(2, 2) }, [{ kind: 'detach', id: 'a' }]],
  ])('%s', (_name, sessions, waiting, c, expected) => {
    expect(plan(sessions, waiting, c)).toEqual(expected);
  });

  it('never plans past the caps, whatever arrives: launches plus what exists stay within them', () => {
    // 100 arrivals at once on a host already at its caps with idle sessions.
    const existing = Array.from({ length: 20 }, (_, i) => (i < 8 ? s(`e${i}`, 'idle', i) : detached(`e${i}`, i)));
    const arrivals = Array.from({ length: 100 }, (_, i) => asleep(`n${i}`, 100 + i));
    const actions = plan([...existing, ...arrivals], arrivals.map((a) => w(a.id)), caps(8, 20));
    expect(actions.filter((a) => a.kind === 'launch')).toEqual([]);
    // Room for what the 8 worker slots can take next, no more: the 8 least recent CLIs stop (through their workers,
    // which frees the slots); the 12 detached CLIs stay, since the other 92 arrivals could not start anyway.
    expect(actions.filter((a) => a.kind === 'stop' && a.via === 'worker')).toHaveLength(8);
    expect(actions.filter((a) => a.kind === 'stop' && a.via === 'tmux')).toHaveLength(0);
    expect(actions.filter((a) => a.kind === 'detach')).toHaveLength(0);
  });
});

describe('the idle rule (idleDetachMinutes)', () => {
  const MIN = 60_000;
  const now = 100 * MIN;
  const idleCaps = (idleDetachMs: number): Caps => ({ maxLiveWorkers: 30, maxLiveClis: 20, idleDetachMs });
  const at = (minutesAgo: number) => now - minutesAgo * MIN;
  const planAt = (sessions: HostSession[], waiting: WaitingLaunch[], c: Caps | Record<string, Caps>) =>
    planCapacity({ sessions, waiting, now, caps: (g) => ('maxLiveWorkers' in c ? (c as Caps) : (c as Record<string, Caps>)[g]!) });

  it.each<[string, HostSession[], WaitingLaunch[], Caps | Record<string, Caps>, CapacityAction[]]>([
    ['idle longer than the limit: its worker detaches (its CLI stays)', [s('a', 'idle', at(11)), s('b', 'idle', at(9))], [], idleCaps(10 * MIN), [{ kind: 'detach', id: 'a', idle: true }]],
    ['exactly at the limit counts as due', [s('a', 'idle', at(10))], [], idleCaps(10 * MIN), [{ kind: 'detach', id: 'a', idle: true }]],
    ['0 = never', [s('a', 'idle', at(600))], [], idleCaps(0), []],
    ['a session whose CLI exited also lets its worker go', [s('a', 'exited', at(20))], [], idleCaps(10 * MIN), [{ kind: 'detach', id: 'a', idle: true }]],
    ['busy sessions keep their workers however long they run', [s('a', 'working', at(60)), s('b', 'waiting', at(60)), s('c', 'starting', at(60)), s('d', 'limited', at(60))], [], idleCaps(10 * MIN), []],
    ['a pinned session (a message on its way) keeps its worker', [s('a', 'idle', at(60), { pinned: true })], [], idleCaps(10 * MIN), []],
    ['a session a web terminal watches keeps its worker', [s('a', 'idle', at(60), { watched: true })], [], idleCaps(10 * MIN), []],
    ['a waiting session is not detached', [s('a', 'idle', at(60))], [w('a')], idleCaps(10 * MIN), []],
    ['no worker, nothing to detach', [detached('a', at(60)), asleep('b', at(60))], [], idleCaps(10 * MIN), []],
    ['an action under way is not repeated', [s('a', 'idle', at(60), { underway: 'detach' })], [], idleCaps(10 * MIN), []],
    ['an adopted CLI: its worker may go, the CLI is the person\'s', [s('a', 'idle', at(60), { keepCli: true })], [], idleCaps(10 * MIN), [{ kind: 'detach', id: 'a', idle: true }]],
    ['a session a cap already stops is not also detached', [s('a', 'idle', at(60)), s('b', 'idle', at(50)), s('c', 'working', at(1))], [], { maxLiveWorkers: 30, maxLiveClis: 2, idleDetachMs: 10 * MIN }, [{ kind: 'stop', id: 'a', via: 'worker' }, { kind: 'detach', id: 'b', idle: true }]],
    ['per bot: only the bot with the rule', [s('a', 'idle', at(60), { group: 'x' }), s('b', 'idle', at(60), { group: 'y' })], [], { x: idleCaps(10 * MIN), y: idleCaps(0) }, [{ kind: 'detach', id: 'a', idle: true }]],
  ])('%s', (_name, sessions, waiting, c, expected) => {
    expect(planAt(sessions, waiting, c)).toEqual(expected);
  });

  it('without a time to measure against, nobody is detached for being idle', () => {
    expect(plan([s('a', 'idle', at(600))], [], idleCaps(10 * MIN))).toEqual([]);
  });

  it.each<[string, HostSession[], Caps, number | null]>([
    ['the earliest quiet worker sets the timer', [s('a', 'idle', at(3)), s('b', 'idle', at(5)), s('c', 'working', at(9))], idleCaps(10 * MIN), at(5) + 10 * MIN],
    ['an overdue one is due now (its due time, in the past)', [s('a', 'idle', at(30))], idleCaps(10 * MIN), at(30) + 10 * MIN],
    ['a watched one is looked at again a minute on', [s('a', 'idle', at(30), { watched: true })], idleCaps(10 * MIN), now + CAPACITY.watchedRecheckMs],
    ['nothing quiet with a worker: no timer', [s('a', 'working', at(30)), detached('b', at(30))], idleCaps(10 * MIN), null],
    ['the rule off: no timer', [s('a', 'idle', at(30))], idleCaps(0), null],
  ])('next wake-up: %s', (_name, sessions, c, expected) => {
    expect(nextIdleDetachAt({ sessions, waiting: [], now, caps: () => c })).toBe(expected);
  });
});
