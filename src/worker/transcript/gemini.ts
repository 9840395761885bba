// Gemini CLI chat parser: `~/.gemini/tmp/<project>/chats/session-…-<id8>.jsonl`, which has no end-of-turn record.
import { isRecord, str, type TranscriptEvent, type TranscriptParser } from './types.js';
import { geminiCallUsage, UsageTally } from './usage-tally.js';

function userText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  if (content.some((b) => isRecord(b) && (b.functionResponse !== undefined || b.functionCall !== undefined))) return null;
  const texts = content.flatMap((b) => (isRecord(b) && typeof b.text === 'string' ? [b.text] : []));
  return texts.length ? texts.join('\n') : null;
}

function geminiText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.flatMap((b) => (isRecord(b) && typeof b.text === 'string' ? [b.text] : [])).join('');
  return '';
}

/** Tool calls still to run (or running): the turn goes on after their results. Cancelled or failed calls end it. */
function hasPendingToolCalls(toolCalls: unknown): boolean {
  if (!Array.isArray(toolCalls) || toolCalls.length === 0) return false;
  return toolCalls.some((c) => !isRecord(c) || (c.status !== 'cancelled' && c.status !== 'error'));
}

/**
 * Line 1 carries `sessionId`; then `$set` patches (ignored) and message records. The same message id may be
 * re-appended once it changes (a reply gains `toolCalls`), so a reply without tool calls is only a *candidate*
 * end of turn: it becomes `turn_end` when the next user prompt arrives or when the file settles.
 */
export class GeminiTranscriptParser implements TranscriptParser {
  private identitySent = false;
  private candidate: { id: string; text: string } | null = null;
  /** The reply already reported as a turn end; a later re-append of it is not a new turn. */
  private endedId: string | null = null;
  private readonly usage = new UsageTally();

  push(record: unknown): TranscriptEvent[] {
    if (!isRecord(record)) return [];
    const out: TranscriptEvent[] = [];
    const sessionId = str(record.sessionId);
    if (!this.identitySent && sessionId) {
      this.identitySent = true;
      out.push({ kind: 'identity', nativeSessionId: sessionId });
    }
    if (record.$set !== undefined) return out;
    const id = str(record.id) ?? '';
    if (record.type === 'user') {
      const text = userText(record.content);
      if (text === null) {
        this.candidate = null; // a tool result: the model answers again
        return out;
      }
      out.push(...this.settle());
      this.usage.reset();
      out.push({ kind: 'user_turn', text });
    } else if (record.type === 'gemini') {
      const call = geminiCallUsage(record);
      if (call && (id === '' || id !== this.endedId)) this.usage.add(id || undefined, call);
      if (hasPendingToolCalls(record.toolCalls)) this.candidate = null;
      else if (id === '' || id !== this.endedId) this.candidate = { id, text: geminiText(record.content) };
    }
    return out;
  }

  settle(): TranscriptEvent[] {
    if (!this.candidate) return [];
    const { id, text } = this.candidate;
    this.candidate = null;
    this.endedId = id || null;
    const usage = this.usage.take();
    return [{ kind: 'turn_end', finalText: text, ...(usage ? { usage } : {}) }];
  }
}
