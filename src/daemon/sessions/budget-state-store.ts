// What a bot's budget keeper must remember over a restart (issue 30 item 3), beside its sessions
// (sessions-<appId>.budget.json): the day its owner was last warned, so a restart does not warn again that day.
import { z } from 'zod';
import { SiblingStore, type StoreOptions } from '../ground/store.js';

/** The `format` field of a sessions-<appId>.budget.json file. */
export const BUDGET_STATE_FORMAT = 'larkmux-budget-state';

const BudgetStateSchema = z.strictObject({
  kind: z.literal('warned'),
  /** The day (YYYY-MM-DD in the bot's time zone) the owner was last warned. */
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});
type BudgetState = z.infer<typeof BudgetStateSchema>;

export class BudgetStateStore extends SiblingStore<BudgetState> {
  private loaded: Promise<void> | null = null;

  constructor(opts: StoreOptions) {
    super(opts, 'budget', { format: BUDGET_STATE_FORMAT, schema: BudgetStateSchema, idOf: (r) => r.kind });
  }

  /** The last day warned; a file that cannot be read is kept aside by the store's load (and logged there): none then. */
  async warnedDay(): Promise<string | undefined> {
    this.loaded ??= this.load().then(() => undefined);
    await this.loaded;
    return this.get('warned')?.day;
  }

  /** On disk before the owner is told, so a crash between them costs at most that day's warning, never repeats it. */
  async setWarnedDay(day: string): Promise<void> {
    await this.warnedDay();
    this.put({ kind: 'warned', day });
    await this.flush();
  }
}
