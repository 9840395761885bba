// The real daemon with the real Claude Code: a long final answer streams into answer cards (CardKit) and equals what
// Claude wrote in its transcript; a 40 000-character CJK answer arrives complete and in order (cards and answer.md).
// Each answered turn is one usage-ledger entry with the fake model's own token counts, shown by `/lmx usage` (issue 30.2).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answerCardsIn, answerText, decodeEntities, markdownText, textsIn } from '../support/cards.js';
import { disposeClaudeWorld, startClaudeWorld, type ClaudeWorld } from '../support/claude-world.js';
import { skipWithoutCli } from '../support/clis.js';
import { FAKE_CALL_USAGE, longAnswerText } from '../support/fake-models/common.js';
import { runLarkmux } from '../support/larkmux-cli.js';
import { until } from '../support/until.js';
import { readUsageLedger, usageLedgerDir } from '../../src/platform/usage-ledger-file.js';
import type { FakeMessage } from '../support/fake-feishu/index.js';

/** Every assistant text block Claude wrote to its transcripts (~/.claude/projects/<cwd>/<session>.jsonl), oldest first. */
function transcriptAnswers(home: string): string[] {
  const root = join(home, '.claude', 'projects');
  const out: string[] = [];
  for (const dir of readdirSync(root)) {
    for (const f of readdirSync(join(root, dir)).filter((n) => n.endsWith('.jsonl'))) {
      for (const line of readFileSync(join(root, dir, f), 'utf8').split('\n')) {
        if (!line.trim()) continue;
        const rec = JSON.parse(line) as { type?: string; message?: { content?: unknown } };
        if (rec.type !== 'assistant' || !Array.isArray(rec.message?.content)) continue;
        for (const b of rec.message.content as { type?: string; text?: string }[]) if (b.type === 'text' && b.text) out.push(b.text);
      }
    }
  }
  return out;
}

describe.skipIf(skipWithoutCli('claude'))('daemon + real Claude Code: the answer streamed, never cut', () => {
  let world: ClaudeWorld | undefined;
  afterEach(async () => {
    if (!world) return;
    await disposeClaudeWorld(world);
    world = undefined;
  });

  it("a 20 000-character answer streams into its card in ≥ 3 increasing-sequence updates and ends equal to the transcript's answer; 40 000 CJK characters arrive whole and in order", async () => {
    world = await startClaudeWorld({ askPermissions: false });
    const { rig, root } = world;
    await rig.start();
    const { fake } = rig;
    const appId = rig.appIds[0]!;
    const closed = (m: FakeMessage) => (fake.cardEntities.get(m.cardId!)?.card.config as { streaming_mode?: boolean } | undefined)?.streaming_mode === false;

    const first = await fake.injectMessage({ chatType: 'p2p', text: 'LONG-ANSWER 20000' });
    const card = await fake.waitFor(() => answerCardsIn(fake, appId, first.chatId).find(closed), 180_000, 'answer card closed');
    const entity = fake.cardEntities.get(card.cardId!)!;
    expect(entity.updates.length).toBeGreaterThanOrEqual(3);
    const seqs = [...entity.updates, ...entity.settings].map((u) => u.sequence);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    const written = transcriptAnswers(join(root, 'home')).find((t) => t.startsWith('line 0:'));
    expect(written).toBe(longAnswerText(20_000, false));
    expect(answerText(card)).toBe(written);
    expect(answerCardsIn(fake, appId, first.chatId)).toHaveLength(1);

    const second = await fake.injectMessage({ chatType: 'p2p', chatId: first.chatId, text: 'LONG-ANSWER-CJK 40000' });
    const want = longAnswerText(40_000, true);
    const cjkCards = () => answerCardsIn(fake, appId, second.chatId).filter((m) => m.messageId !== card.messageId);
    const file = await fake.waitFor(() => fake.messages.find((m) => m.chatId === second.chatId && m.msgType === 'file'), 240_000, 'answer.md after the cards');
    expect(cjkCards().every(closed)).toBe(true);
    expect(cjkCards().map(answerText).join('')).toBe(want);
    expect(transcriptAnswers(join(root, 'home')).find((t) => t.startsWith(want.slice(0, 20)))).toBe(want);
    const upload = fake.fileUploads.find((u) => u.fileKey === (file.content as { file_key: string }).file_key)!;
    expect(upload.bytes.toString('utf8')).toBe(want);
  }, 480_000);

  it('each turn is one ledger entry with the fake\'s tokens, who asked, and the model; `larkmux usage --json` sums them', async () => {
    const rig = (world = await startClaudeWorld({ askPermissions: false })).rig;
    await rig.start();
    const [fake, appId] = [rig.fake, rig.appIds[0]!];
    let chatId: string | undefined;
    for (const text of ['usage one', 'usage two']) {
      chatId = (await fake.injectMessage({ chatType: 'p2p', text, ...(chatId ? { chatId } : {}) })).chatId;
      await fake.waitFor(() => textsIn(fake, appId, chatId!).some((t) => t.includes(`FAKE-REPLY: ${text}`)), 120_000, `the answer to ${text}`);
    }

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

    // Each turn card ends with its figures: model · context · tokens · elapsed.
    const footer = /\S+ · (context|上下文) 35 · 42 tokens? · \d/;
    const turnCards = fake.messages.filter((m) => m.appId === appId && m.chatId === chatId && m.msgType === 'interactive' && !m.cardId);
    expect(turnCards.filter((m) => footer.test(decodeEntities(markdownText(m.content))))).toHaveLength(2);

    // In the chat: plain /usage is Claude Code's own command, `/lmx usage` reaches larkmux (2 turns of 42 tokens).
    await fake.injectMessage({ chatType: 'p2p', chatId, text: '/lmx usage' });
    const report = await fake.waitFor(() => textsIn(fake, appId, chatId!).find((t) => /84 tokens in 2 turns|2 轮 84 token/.test(t)), 60_000, 'the /lmx usage reply');
    expect(report.split('\n')).toHaveLength(5);
  }, 300_000);
});
