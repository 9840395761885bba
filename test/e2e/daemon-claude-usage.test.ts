// Issue 30 item 2 end to end: a turn of the real Claude Code through the real daemon and the fake Feishu lands in the
// usage ledger with the fake model's own token counts, and `larkmux usage --json` (the real command) reports it.
import { afterEach, describe, expect, it } from 'vitest';
import { readUsageLedger, usageLedgerDir } from '../../src/platform/usage-ledger-file.js';
import { textsIn } from '../support/cards.js';
import { disposeClaudeWorld, startClaudeWorld, type ClaudeWorld } from '../support/claude-world.js';
import { skipWithoutCli } from '../support/clis.js';
import { FAKE_CALL_USAGE } from '../support/fake-models/common.js';
import { runLarkmux } from '../support/larkmux-cli.js';
import { until } from '../support/until.js';

describe.skipIf(skipWithoutCli('claude'))('daemon + real Claude Code: the usage ledger', () => {
  let world: ClaudeWorld | undefined;
  afterEach(async () => {
    if (!world) return;
    await disposeClaudeWorld(world);
    world = undefined;
  });

  it('each turn is one ledger entry with the fake\'s tokens, who asked, and the model; `larkmux usage --json` sums them', async () => {
    world = await startClaudeWorld({ askPermissions: false });
    const { rig } = world;
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const first = await fake.injectMessage({ chatType: 'p2p', text: 'usage one' });
    await fake.waitFor(() => textsIn(fake, appId, first.chatId).some((t) => t.includes('FAKE-REPLY: usage one')), 120_000, 'first answer');
    await fake.injectMessage({ chatType: 'p2p', chatId: first.chatId, text: 'usage two' });
    await fake.waitFor(() => textsIn(fake, appId, first.chatId).some((t) => t.includes('FAKE-REPLY: usage two')), 120_000, 'second answer');

    const dir = usageLedgerDir(rig.home.dir);
    const { entries } = await until('two ledger entries', async () => {
      const read = await readUsageLedger(dir);
      return read.entries.length >= 2 ? read : null;
    }, 30_000);
    expect(entries).toHaveLength(2);
    for (const e of entries) {
      expect(e).toMatchObject({ appId, cli: 'claude-code', userId: rig.user, usage: {
        inputTokens: FAKE_CALL_USAGE.freshInput, cacheReadTokens: FAKE_CALL_USAGE.cachedInput, outputTokens: FAKE_CALL_USAGE.output, cacheWriteTokens: 0,
      } });
      expect(e.usage?.model).toMatch(/\S/);
      expect(e.elapsedMs).toBeGreaterThanOrEqual(0);
    }
    expect(new Set(entries.map((e) => e.sessionId)).size).toBe(1);

    const res = await runLarkmux(['usage', '--json', '--since', '1d'], rig.home.env);
    expect(res.code).toBe(0);
    const perCall = FAKE_CALL_USAGE.freshInput + FAKE_CALL_USAGE.cachedInput + FAKE_CALL_USAGE.output;
    expect(JSON.parse(res.stdout)).toMatchObject({
      totals: { turns: 2, inputTokens: 2 * FAKE_CALL_USAGE.freshInput, outputTokens: 2 * FAKE_CALL_USAGE.output, totalTokens: 2 * perCall },
      rows: [expect.objectContaining({ cli: 'claude-code', turns: 2 })],
    });
  }, 300_000);
});
