// Claude Code transcript parser: `~/.claude/projects/<cwd>/<session-id>.jsonl`, ended per turn by `system/turn_duration`.
import { isRecord, str, type TranscriptEvent, type TranscriptParser } from './types.js';
import { claudeCallUsage, UsageTally } from './usage-tally.js';

/** Harness-written user rows that look like prompts but are not (after a rejected tool, an Esc). */
const NOT_A_PROMPT = /^\[Request interrupted by user/;

/** Text of a human prompt record, or null when the record is a tool result, a harness note or meta. */
export function claudePromptText(rec: Record<string, unknown>): string | null {
  if (rec.type !== 'user' || rec.isMeta === true || rec.isSidechain === true || rec.rowSource === 'harness') return null;
  if (rec.toolUseResult !== undefined || rec.sourceToolAssistantUUID !== undefined) return null;
  const message = rec.message;
  if (!isRecord(message)) return null;
  const content = message.content;
  if (typeof content === 'string') return NOT_A_PROMPT.test(content) ? null : content;
  if (!Array.isArray(content)) return null;
  if (content.some((b) => isRecord(b) && b.type === 'tool_result')) return null;
  const texts = content.flatMap((b) => (isRecord(b) && b.type === 'text' && typeof b.text === 'string' ? [b.text] : []));
  if (texts.length === 0 || texts.every((t) => NOT_A_PROMPT.test(t))) return null;
  return texts.join('\n');
}

/**
 * A prompt typed while Claude worked and taken into the running turn at its next tool result (2.1.332: an `attachment`
 * record of type `queued_command`, written when the model is handed it, with a `queue-operation` `remove` whose reason
 * is `absorbed_mid_turn`). One still queued when the turn ends is dequeued and recorded as an ordinary `user` prompt.
 */
export function claudeAbsorbedPrompt(rec: Record<string, unknown>): string | null {
  if (rec.type !== 'attachment' || rec.isSidechain === true) return null;
  const a = rec.attachment;
  if (!isRecord(a) || a.type !== 'queued_command' || typeof a.prompt !== 'string') return null;
  return a.commandMode === undefined || a.commandMode === 'prompt' ? a.prompt : null;
}

/**
 * Each content block of one API message is its own `assistant` record sharing `message.id`; the final answer
 * is the text of the last message that had any text, taken when `turn_duration` closes the turn.
 */
export class ClaudeTranscriptParser implements TranscriptParser {
  private identitySent = false;
  private lastTextMessageId: string | null = null;
  private lastTextParts: string[] = [];
  private readonly usage = new UsageTally();

  push(record: unknown): TranscriptEvent[] {
    if (!isRecord(record)) return [];
    const out: TranscriptEvent[] = [];
    const sessionId = str(record.sessionId);
    if (!this.identitySent && sessionId && record.isSidechain !== true) {
      this.identitySent = true;
      out.push({ kind: 'identity', nativeSessionId: sessionId });
    }
    const prompt = claudePromptText(record);
    if (prompt !== null) {
      this.resetTurn();
      out.push({ kind: 'user_turn', text: prompt });
      return out;
    }
    const absorbed = claudeAbsorbedPrompt(record);
    if (absorbed !== null) {
      out.push({ kind: 'absorbed_prompt', text: absorbed });
      return out;
    }
    if (record.type === 'assistant' && record.isSidechain !== true && isRecord(record.message)) {
      this.collectAssistant(record.message);
      const call = claudeCallUsage(record.message);
      if (call) this.usage.add(str(record.message.id), call);
    } else if (record.type === 'system' && record.subtype === 'turn_duration' && record.isSidechain !== true) {
      const usage = this.usage.take(typeof record.durationMs === 'number' ? record.durationMs : undefined);
      out.push({ kind: 'turn_end', finalText: this.lastTextParts.join('\n'), ...(usage ? { usage } : {}) });
      this.resetTurn();
    }
    return out;
  }

  settle(): TranscriptEvent[] {
    return [];
  }

  private collectAssistant(message: Record<string, unknown>): void {
    const content = message.content;
    const texts = Array.isArray(content)
      ? content.flatMap((b) => (isRecord(b) && b.type === 'text' && typeof b.text === 'string' && b.text.length > 0 ? [b.text] : []))
      : typeof content === 'string' && content.length > 0 ? [content] : [];
    if (texts.length === 0) return;
    const id = str(message.id) ?? '';
    if (id !== this.lastTextMessageId) {
      this.lastTextMessageId = id;
      this.lastTextParts = [];
    }
    this.lastTextParts.push(...texts);
  }

  private resetTurn(): void {
    this.usage.reset();
    this.lastTextMessageId = null;
    this.lastTextParts = [];
  }
}
