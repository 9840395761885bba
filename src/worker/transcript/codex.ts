// Codex rollout parser: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<thread-id>.jsonl`, ended by `event_msg/task_complete`.
import { isRecord, str, type TranscriptEvent, type TranscriptParser } from './types.js';

function itemText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content.flatMap((b) => (isRecord(b) && typeof b.text === 'string' ? [b.text] : [])).join('\n');
}

/**
 * Every line is `{timestamp, type, payload}`. The user's prompt is the `item_completed` UserMessage (the
 * `response_item` user messages also carry injected context); the turn's answer is `task_complete.last_agent_message`.
 */
export class CodexTranscriptParser implements TranscriptParser {
  private identitySent = false;
  private lastAgentText = '';

  push(record: unknown): TranscriptEvent[] {
    if (!isRecord(record) || !isRecord(record.payload)) return [];
    const p = record.payload;
    if (record.type === 'session_meta') {
      const id = str(p.id) ?? str(p.session_id);
      if (!this.identitySent && id) {
        this.identitySent = true;
        return [{ kind: 'identity', nativeSessionId: id }];
      }
      return [];
    }
    if (record.type !== 'event_msg') return [];
    switch (p.type) {
      case 'item_completed': {
        const item = p.item;
        if (!isRecord(item)) return [];
        if (item.type === 'UserMessage') {
          this.lastAgentText = '';
          return [{ kind: 'user_turn', text: itemText(item.content) }];
        }
        if (item.type === 'AgentMessage') this.lastAgentText = itemText(item.content);
        return [];
      }
      case 'user_message': {
        // Older rollouts (before item_completed) recorded the prompt this way.
        const text = str(p.message);
        if (text === undefined) return [];
        this.lastAgentText = '';
        return [{ kind: 'user_turn', text }];
      }
      case 'task_complete': {
        // A sub-agent's turn completes inside the root turn; only the root turn ends the user's turn.
        const turn = str(p.turn_id);
        const root = str(p.root_turn_id);
        if (turn && root && turn !== root) return [];
        const finalText = str(p.last_agent_message) ?? this.lastAgentText;
        this.lastAgentText = '';
        return [{ kind: 'turn_end', finalText }];
      }
      default:
        return [];
    }
  }

  settle(): TranscriptEvent[] {
    return [];
  }
}
