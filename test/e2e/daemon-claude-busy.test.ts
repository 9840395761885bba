// The real daemon, the fake Feishu and the real Claude Code (issue 30 item 4): a message sent while Claude works waits
// by default and goes once the turn ends; "Interrupt and send" on its card stops the running turn (a Bash command that
// would run for minutes) and delivers it next. Claude's own transcript proves each prompt reached it exactly once: the
// interrupted prompt Claude puts back in its input box is cleared, never sent again.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buttons, cardsFor, headerColour, markdownText, textsIn } from '../support/cards.js';
import { disposeClaudeWorld, startClaudeWorld, type ClaudeWorld } from '../support/claude-world.js';
import { skipWithoutCli } from '../support/clis.js';
import { until } from '../support/until.js';

/** The prompts a person typed, as Claude recorded them (~/.claude/projects/<cwd>/<session>.jsonl), oldest first. */
function transcriptPrompts(home: string): string[] {
  const root = join(home, '.claude', 'projects');
  const out: string[] = [];
  for (const dir of readdirSync(root)) {
    for (const f of readdirSync(join(root, dir)).filter((n) => n.endsWith('.jsonl'))) {
      for (const line of readFileSync(join(root, dir, f), 'utf8').split('\n')) {
        if (!line.trim()) continue;
        const rec = JSON.parse(line) as { type?: string; isMeta?: boolean; message?: { content?: unknown } };
        if (rec.type !== 'user' || rec.isMeta) continue;
        const content = rec.message?.content;
        if (typeof content === 'string') out.push(content);
        else if (Array.isArray(content)) for (const b of content as { type?: string; text?: string }[]) if (b.type === 'text' && b.text) out.push(b.text);
      }
    }
  }
  return out;
}

/** Bash allowed outright: auto mode's server-side safety check cannot run against the fake model. */
const BASH_ALLOWED = { permissions: { defaultMode: 'default', allow: ['Bash'] } };

/** Starts the daemon and Claude with a first message, and answers Claude's auto-mode offer: keep manual mode. */
async function claudeInManualMode(rig: ClaudeWorld['rig']): Promise<{ fake: ClaudeWorld['rig']['fake']; appId: string; chatId: string }> {
  await rig.start();
  const { fake } = rig;
  const { chatId } = await fake.injectMessage({ chatType: 'p2p', text: 'hello' });
  const manual = (labels: string[]) => labels.find((b) => /keep manual mode/i.test(b));
  const offer = await fake.waitFor(() => fake.messages.find((m) => m.chatId === chatId && m.msgType === 'interactive' && manual(buttons(m.content))), 90_000, 'mode offer card');
  await fake.tapButton(offer.messageId, manual(buttons(offer.content))!);
  await fake.waitFor(() => markdownText(offer.content).includes('Answered by'), 20_000, 'offer answered');
  return { fake, appId: rig.appIds[0]!, chatId };
}

describe.skipIf(skipWithoutCli('claude'))('daemon + real Claude Code: a message while Claude works', () => {
  let world: ClaudeWorld | undefined;
  afterEach(async () => {
    if (!world) return;
    await disposeClaudeWorld(world);
    world = undefined;
  });

  it('waits by default and goes after the turn; "Interrupt and send" stops the turn and delivers it once', async () => {
    world = await startClaudeWorld({ askPermissions: false, settings: BASH_ALLOWED });
    const { rig, home } = world;
    const { fake, appId, chatId } = await claudeInManualMode(rig);

    /** Sends a turn whose tool call keeps Claude working, and waits until its card shows it working. */
    const busyTurn = async (seconds: number): Promise<string> => {
      // Not `sleep`: Claude Code refuses a long foreground sleep. Its Bash tool ends a command at 2 minutes anyway.
      const text = `RUN_TOOL: timeout ${seconds} tail -f /dev/null`;
      const m = await fake.injectMessage({ chatType: 'p2p', chatId, text });
      await fake.waitFor(() => cardsFor(fake, appId, m.messageId).some((c) => headerColour(c.content) === 'orange'), 120_000, `working on ${text}`);
      return text;
    };
    const waitingCard = async (messageId: string) =>
      fake.waitFor(() => cardsFor(fake, appId, messageId).find((c) => buttons(c.content).includes('Interrupt and send')), 60_000, 'the waiting card');

    // Wait (the default): the message goes once the turn ended, and its card says so. Only "Interrupt and send" is
    // offered: no CLI steers until a transcript proves the steered prompt arrived (cli-spec.ts CLI_STEERS).
    const shortTurn = await busyTurn(25);
    const waited = await fake.injectMessage({ chatType: 'p2p', chatId, text: 'waited for the turn' });
    const waitedCard = await waitingCard(waited.messageId);
    expect(buttons(waitedCard.content)).toContain('Interrupt and send');
    expect(buttons(waitedCard.content)).not.toContain('Steer now');
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes('FAKE-REPLY: waited for the turn')), 180_000, 'the answer to the waiting message');
    expect(markdownText(waitedCard.content)).toContain('Sent after the turn ended');
    expect(buttons(waitedCard.content)).not.toContain('Interrupt and send');

    // Interrupt and send: the command would run for minutes; the tap stops it and the message goes next.
    const longTurn = await busyTurn(600);
    const urgent = await fake.injectMessage({ chatType: 'p2p', chatId, text: 'stop and read this' });
    const urgentCard = await waitingCard(urgent.messageId);
    await fake.tapButton(urgentCard.messageId, 'Interrupt and send');
    // The next turn: Claude records the message, and answers (the fake model answers the rejected tool call first).
    await until('the urgent message in the transcript', () => transcriptPrompts(home).some((p) => p.trim() === 'stop and read this'), 120_000);
    await fake.waitFor(() => textsIn(fake, appId, chatId).some((t) => t.includes("FAKE-REPLY: tool said: The user doesn't want to proceed")), 120_000, 'the answer after the interrupt');
    expect(markdownText(urgentCard.content)).toContain('Interrupted');

    // Transcript proof: each prompt reached Claude exactly once, in order, the interrupted one not again.
    const prompts = transcriptPrompts(home).filter((p) => [shortTurn, 'waited for the turn', longTurn, 'stop and read this'].includes(p.trim()));
    expect(prompts.map((p) => p.trim())).toEqual([shortTurn, 'waited for the turn', longTurn, 'stop and read this']);
  }, 600_000);
});
