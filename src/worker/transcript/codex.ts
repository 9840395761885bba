// Codex rollout parser: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<thread-id>.jsonl`, ended by `task_complete` or `turn_aborted`.
import { isRecord, str, type TranscriptEvent, type TranscriptParser } from './types.js';
import { codexCallUsage, UsageTally } from './usage-tally.js';

/**
 * What Codex 0.171 writes when it stops a turn early, as it says it on screen ("✗ You canceled the request to run …",
 * "■ Conversation interrupted"). A refused tool call and Esc both end in `turn_aborted` with reason "interrupted".
 */
export const CODEX_ABORT_TEXT = {
  refusedCommand: (cmd: string) => `(Conversation interrupted: the request to run \`${cmd}\` was refused)`,
  refusedTool: '(Conversation interrupted: the tool call was refused)',
  interrupted: '(Conversation interrupted)',
  otherReason: (reason: string) => `(Conversation interrupted: ${reason.replace(/_/g, ' ')})`,
} as const;

/** A refused call's `function_call_output` ends with this ("Wall time: 3.2 seconds\naborted by user"). */
const REFUSED_OUTPUT = /aborted by user\s*$/;

function itemText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content.flatMap((b) => (isRecord(b) && typeof b.text === 'string' ? [b.text] : [])).join('\n');
}

/** The shell command of an `exec_command` call (`{cmd: "…"}`; older shells used `{command: [argv]}`), if readable. */
function commandOf(args: unknown): string | undefined {
  if (typeof args !== 'string') return undefined;
  try {
    const parsed = JSON.parse(args) as unknown;
    if (!isRecord(parsed)) return undefined;
    if (typeof parsed.cmd === 'string') return parsed.cmd;
    if (Array.isArray(parsed.command) && parsed.command.every((a) => typeof a === 'string')) return parsed.command.join(' ');
  } catch {
    // arguments that are not JSON: no command to name
  }
  return undefined;
}

/** The final text of an aborted turn: what the assistant said (if anything), then why the turn stopped. */
export function codexAbortText(lastAgentText: string, reason: string | undefined, refused: { command?: string } | null): string {
  const why = refused
    ? refused.command ? CODEX_ABORT_TEXT.refusedCommand(refused.command) : CODEX_ABORT_TEXT.refusedTool
    : !reason || reason === 'interrupted' ? CODEX_ABORT_TEXT.interrupted : CODEX_ABORT_TEXT.otherReason(reason);
  return lastAgentText ? `${lastAgentText}\n\n${why}` : why;
}

/**
 * Every line is `{timestamp, type, payload}`. The user's prompt is the `item_completed` UserMessage (the
 * `response_item` user messages also carry injected context); the turn's answer is `task_complete.last_agent_message`.
 * A turn stopped early (a refused approval, Esc) writes no `task_complete`: the refused call's output says
 * "aborted by user", a `<turn_aborted>` harness message follows, then `event_msg/turn_aborted {reason}`.
 */
export class CodexTranscriptParser implements TranscriptParser {
  private identitySent = false;
  private lastAgentText = '';
  /** Commands of this turn's tool calls by call id, to name the one that was refused. */
  private callCommands = new Map<string, string | undefined>();
  private refused: { command?: string } | null = null;
  private readonly usage = new UsageTally();
  /** The model of the latest `turn_context`, and the running token total of the latest token_count (to skip repeats). */
  private model: string | undefined;
  private lastTotal = -1;
  /** The `turn_id` of the open turn's prompt: a second prompt of that turn was typed while Codex worked. */
  private promptTurnId: string | undefined;

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
    if (record.type === 'response_item') {
      this.noteToolItem(p);
      return [];
    }
    if (record.type === 'turn_context') {
      this.model = str(p.model) ?? this.model;
      return [];
    }
    if (record.type !== 'event_msg') return [];
    switch (p.type) {
      case 'item_completed': {
        const item = p.item;
        if (!isRecord(item)) return [];
        if (item.type === 'UserMessage') return this.userTurn(itemText(item.content), str(p.turn_id));
        if (item.type === 'AgentMessage') this.lastAgentText = itemText(item.content);
        return [];
      }
      case 'user_message': {
        // Older rollouts (before item_completed) recorded the prompt this way.
        const text = str(p.message);
        return text === undefined ? [] : this.userTurn(text);
      }
      case 'token_count': {
        const read = codexCallUsage(p, this.model);
        if (read && (read.total < 0 || read.total !== this.lastTotal)) this.usage.add(undefined, read.call);
        if (read) this.lastTotal = read.total;
        return [];
      }
      case 'task_complete': {
        if (this.isSubAgentTurn(p)) return [];
        return this.turnEnd(str(p.last_agent_message) ?? this.lastAgentText, typeof p.duration_ms === 'number' ? p.duration_ms : undefined);
      }
      case 'turn_aborted': {
        if (this.isSubAgentTurn(p)) return [];
        return this.turnEnd(codexAbortText(this.lastAgentText, str(p.reason), this.refused), typeof p.duration_ms === 'number' ? p.duration_ms : undefined);
      }
      default:
        return [];
    }
  }

  settle(): TranscriptEvent[] {
    return [];
  }

  private noteToolItem(p: Record<string, unknown>): void {
    const callId = str(p.call_id);
    if (!callId) return;
    if (p.type === 'function_call') this.callCommands.set(callId, commandOf(p.arguments));
    else if (p.type === 'function_call_output' && typeof p.output === 'string' && REFUSED_OUTPUT.test(p.output)) {
      const command = this.callCommands.get(callId);
      this.refused = command ? { command } : {};
    }
  }

  /** A sub-agent's turn completes (or aborts) inside the root turn; only the root turn ends the user's turn. */
  private isSubAgentTurn(p: Record<string, unknown>): boolean {
    const turn = str(p.turn_id);
    const root = str(p.root_turn_id);
    return Boolean(turn && root && turn !== root);
  }

  /**
   * Codex 0.171 holds a message typed while it works ("Messages to be submitted after next tool call") and submits it
   * after the next tool output, in the same turn: its UserMessage carries the running turn's `turn_id`, and one
   * `task_complete` ends both. That one is absorbed into the turn, not a turn of its own.
   */
  private userTurn(text: string, turnId?: string): TranscriptEvent[] {
    if (turnId !== undefined && turnId === this.promptTurnId) return [{ kind: 'absorbed_prompt', text }];
    this.resetTurn();
    this.promptTurnId = turnId;
    return [{ kind: 'user_turn', text }];
  }

  private turnEnd(finalText: string, elapsedMs: number | undefined): TranscriptEvent[] {
    const usage = this.usage.take(elapsedMs);
    this.resetTurn();
    return [{ kind: 'turn_end', finalText, ...(usage ? { usage } : {}) }];
  }

  private resetTurn(): void {
    this.promptTurnId = undefined;
    this.usage.reset();
    this.lastAgentText = '';
    this.callCommands.clear();
    this.refused = null;
  }
}
