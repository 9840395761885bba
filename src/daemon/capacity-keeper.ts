// Carries out capacity plans for one bot, one at a time: detach idle workers, stop least recently used idle CLIs.
import type { BotRuntimeHandle } from './bot-runtime-handle.js';
import { planCapacity } from './capacity.js';

export class CapacityKeeper {
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly rt: BotRuntimeHandle) {}

  /** Plans from the sessions as they are now and carries the plan out; runs serialised so no session is stopped twice. */
  enforce(keep?: string): Promise<void> {
    const rt = this.rt;
    this.chain = this.chain
      .then(async () => {
        const entries = rt.sessions
          .all()
          .filter((s) => s.lifecycle !== 'closed')
          .map((s) => ({
            id: s.id,
            status: rt.live.get(s.id)?.currentStatus ?? s.status,
            lastActivityAt: s.lastActivityAt,
            worker: rt.opts.pool.has(s.id),
            cliRunning: s.lifecycle === 'live' || s.lifecycle === 'detached',
          }));
        const plan = planCapacity(entries, rt.bot, keep);
        for (const id of plan.stop) {
          rt.log.info({ session: id.slice(0, 8) }, 'over maxLiveClis: stopping the least recently used idle CLI (it resumes on the next message)');
          const s = rt.sessions.get(id);
          // Only a worker touches panes: a detached CLI gets a short-lived worker whose only job is the kill.
          if (s && !rt.opts.pool.has(id)) rt.ensureWorker(s, { capacityCheck: false });
          await rt.opts.pool.stop(id, 'kill');
          rt.sessions.update(id, { lifecycle: 'stopped', status: 'exited' });
        }
        for (const id of plan.detach) {
          rt.log.info({ session: id.slice(0, 8) }, 'over maxLiveWorkers: detaching the least recently used idle worker');
          await rt.opts.pool.stop(id, 'detach');
          rt.sessions.update(id, { lifecycle: 'detached' });
        }
      })
      .catch((err) => rt.log.error({ err }, 'capacity check failed'));
    return this.chain;
  }
}
