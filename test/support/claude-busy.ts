// Shared by the e2e tests of a message sent while the real Claude Code works (issue 30 item 4): the bot started in
// manual mode with Bash allowed, a turn that keeps Claude busy, and Claude's own transcript read back.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cardsFor, headerColour, buttons, markdownText } from './cards.js';
import type { ClaudeWorld } from './claude-world.js';

/** Bash allowed outright: auto mode's server-side safety check cannot run against the fake model. */
export const BASH_ALLOWED = { permissions: { defaultMode: 'default', allow: ['Bash'] } };

type ClaudeRecord = { type?: string; isMeta?: boolean; message?: { content?: unknown }; attachment?: { type?: string; prompt?: unknown }; operation?: string; reason?: string; content?: unknown };

/** Every record of every Claude session under `home` (~/.claude/projects/<cwd>/<session>.jsonl), file order. */
export function claudeRecords(home: string): ClaudeRecord[] {
  const root = join(home, '.claude', 'projects');
  const out: ClaudeRecord[] = [];
  for (const dir of readdirSync(root)) {
    for (const f of readdirSync(join(root, dir)).filter((n) => n.endsWith('.jsonl'))) {
      for (const line of readFileSync(join(root, dir, f), 'utf8').split('\n')) if (line.trim()) out.push(JSON.parse(line) as ClaudeRecord);
    }
  }
  return out;
}

/** The prompts a person typed, as Claude recorded them as user records, oldest first. */
export function transcriptPrompts(home: string): string[] {
  const out: string[] = [];
  for (const rec of claudeRecords(home)) {
    if (rec.type !== 'user' || rec.isMeta) continue;
    const content = rec.message?.content;
    if (typeof content === 'string') out.push(content);
    else if (Array.isArray(content)) for (const b of content as { type?: string; text?: string }[]) if (b.type === 'text' && b.text) out.push(b.text);
  }
  return out;
}

/** Prompts Claude took into a running turn (typed while it worked), as its `queued_command` attachments record them. */
export function absorbedPrompts(home: string): string[] {
  return claudeRecords(home).flatMap((r) => (r.type === 'attachment' && r.attachment?.type === 'queued_command' && typeof r.attachment.prompt === 'string' ? [r.attachment.prompt] : []));
}

/** Starts the daemon and Claude with a first message, and answers Claude's auto-mode offer: keep manual mode. */
export async function claudeInManualMode(rig: ClaudeWorld['rig']): Promise<{ fake: ClaudeWorld['rig']['fake']; appId: string; chatId: string }> {
  await rig.start();
  const { fake } = rig;
  const { chatId } = await fake.injectMessage({ chatType: 'p2p', text: 'hello' });
  const manual = (labels: string[]) => labels.find((b) => /keep manual mode/i.test(b));
  const offer = await fake.waitFor(() => fake.messages.find((m) => m.chatId === chatId && m.msgType === 'interactive' && manual(buttons(m.content))), 90_000, 'mode offer card');
  await fake.tapButton(offer.messageId, manual(buttons(offer.content))!);
  await fake.waitFor(() => markdownText(offer.content).includes('Answered by'), 20_000, 'offer answered');
  return { fake, appId: rig.appIds[0]!, chatId };
}

/**
 * Sends a turn whose Bash call keeps Claude working for `seconds`, and waits until its card shows it working and the
 * worker proved Claude took it (✅): a tap before that would find the worker still sending it.
 */
export async function busyTurn(chat: { fake: ClaudeWorld['rig']['fake']; appId: string; chatId: string }, seconds: number): Promise<string> {
  const { fake, appId, chatId } = chat;
  // Not `sleep`: Claude Code refuses a long foreground sleep. Its Bash tool ends a command at 2 minutes anyway.
  const text = `RUN_TOOL: timeout ${seconds} tail -f /dev/null`;
  const m = await fake.injectMessage({ chatType: 'p2p', chatId, text });
  await fake.waitFor(() => cardsFor(fake, appId, m.messageId).some((c) => headerColour(c.content) === 'orange'), 120_000, `working on ${text}`);
  await fake.waitFor(() => fake.reactions.some((r) => r.messageId === m.messageId), 60_000, `${text} delivered`);
  return text;
}

/** The card of a message that waits behind the working CLI (it offers "Interrupt and send"). */
export function waitingCard(chat: { fake: ClaudeWorld['rig']['fake']; appId: string }, messageId: string) {
  const { fake, appId } = chat;
  return fake.waitFor(() => cardsFor(fake, appId, messageId).find((c) => buttons(c.content).includes('Interrupt and send')), 60_000, 'the waiting card');
}
