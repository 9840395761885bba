// Fake Anthropic Messages API (what Claude Code calls): SSE streaming, tool_use on cue, every request logged.
import type { ServerResponse } from 'node:http';
import {
  delayFor, FAKE_CALL_USAGE, heldUntilReleased, limitCue, scriptedAction, sendJson, sendJsonWith, sleep, sseHeaders, startFakeServer, type FakeAction, type FakeLimit, type FakeModelOptions, type FakeModelServer,
} from './common.js';

type Block = { type?: string; text?: string; content?: unknown };
type Msg = { role?: string; content?: string | Block[] };

function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return (content as Block[]).map((b) => (typeof b.text === 'string' ? b.text : '')).join('');
  return '';
}

/**
 * The newest user message: its prompt text (system reminders dropped) or its tool result, and with a tool result the
 * text beside it (Claude Code puts a message typed while it worked there: "The user sent a new message while …").
 */
export function anthropicLastUser(body: unknown): { text: string; toolResult: string | null; beside?: string } {
  const messages = ((body as { messages?: Msg[] })?.messages ?? []).filter((m) => m.role === 'user');
  const last = messages[messages.length - 1];
  if (!last) return { text: '', toolResult: null };
  if (typeof last.content === 'string') return { text: last.content, toolResult: null };
  const blocks = last.content ?? [];
  const tool = blocks.find((b) => b.type === 'tool_result');
  const texts = blocks.filter((b) => b.type === 'text' && typeof b.text === 'string' && !b.text.startsWith('<system-reminder>')).map((b) => b.text!);
  if (tool) return { text: '', toolResult: blockText(tool.content), ...(texts.length > 0 ? { beside: texts.join('\n') } : {}) };
  return { text: texts[texts.length - 1] ?? '', toolResult: null };
}

let counter = 0;
const nextId = (prefix: string): string => `${prefix}_fake_${String(++counter).padStart(6, '0')}`;

function event(res: ServerResponse, type: string, data: Record<string, unknown>): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

function streamAction(res: ServerResponse, model: string, action: FakeAction): void {
  sseHeaders(res);
  const usage = { input_tokens: FAKE_CALL_USAGE.freshInput, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: FAKE_CALL_USAGE.cachedInput };
  event(res, 'message_start', { message: { id: nextId('msg'), type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage } });
  const text = action.kind === 'json' ? JSON.stringify(action.value) : action.text;
  event(res, 'content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
  event(res, 'content_block_delta', { index: 0, delta: { type: 'text_delta', text } });
  event(res, 'content_block_stop', { index: 0 });
  let stop = 'end_turn';
  if (action.kind === 'tool') {
    stop = 'tool_use';
    event(res, 'content_block_start', { index: 1, content_block: { type: 'tool_use', id: nextId('toolu'), name: action.tool?.name ?? 'Bash', input: {} } });
    const input = JSON.stringify(action.tool?.input ?? { command: action.command, description: 'Fake tool call' });
    event(res, 'content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: input } });
    event(res, 'content_block_stop', { index: 1 });
  }
  event(res, 'message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: FAKE_CALL_USAGE.output } });
  event(res, 'message_stop', {});
  res.end();
}

function jsonAction(res: ServerResponse, model: string, action: FakeAction): void {
  const content: unknown[] = [{ type: 'text', text: action.kind === 'json' ? JSON.stringify(action.value) : action.text }];
  if (action.kind === 'tool') content.push({ type: 'tool_use', id: nextId('toolu'), name: action.tool?.name ?? 'Bash', input: action.tool?.input ?? { command: action.command, description: 'Fake tool call' } });
  sendJson(res, 200, {
    id: nextId('msg'), type: 'message', role: 'assistant', model, content,
    stop_reason: action.kind === 'tool' ? 'tool_use' : 'end_turn', stop_sequence: null, usage: { input_tokens: FAKE_CALL_USAGE.freshInput, cache_read_input_tokens: FAKE_CALL_USAGE.cachedInput, output_tokens: FAKE_CALL_USAGE.output },
  });
}

/**
 * How the Messages API refuses: 429 `rate_limit_error`. A subscription's usage limit carries the unified limiter's
 * headers (status `rejected`, the window and its reset in epoch seconds), which is what makes Claude Code stop and show
 * when it resets; a plain rate limit has only `retry-after` and the per-minute counters, and Claude Code retries it.
 */
function refuse(res: ServerResponse, limit: FakeLimit): void {
  const resetS = Math.floor(Date.now() / 1000) + limit.resetsInS;
  const headers: Record<string, string> = limit.kind === 'usage'
    ? {
      'anthropic-ratelimit-unified-status': 'rejected',
      'anthropic-ratelimit-unified-reset': String(resetS),
      'anthropic-ratelimit-unified-5h-status': 'rejected',
      'anthropic-ratelimit-unified-5h-reset': String(resetS),
      'anthropic-ratelimit-unified-5h-utilization': '1.0',
      'anthropic-ratelimit-unified-representative-claim': 'five_hour',
      'anthropic-ratelimit-unified-fallback': 'available',
    }
    : {
      'retry-after': String(limit.resetsInS),
      'anthropic-ratelimit-requests-limit': '50',
      'anthropic-ratelimit-requests-remaining': '0',
      'anthropic-ratelimit-requests-reset': new Date(resetS * 1000).toISOString(),
    };
  const message = limit.kind === 'usage' ? 'This request would exceed your account\'s rate limit. Please try again later.' : 'Number of requests has exceeded your per-minute rate limit';
  sendJsonWith(res, 429, { 'request-id': `req_fake_limit_${resetS}`, ...headers }, { type: 'error', error: { type: 'rate_limit_error', message } });
}

/** `ASK-QUESTION` → Claude's AskUserQuestion tool: a question with two options (Claude adds its own free-text row). */
function askQuestion(text: string, toolResult: string | null): FakeAction | null {
  if (toolResult !== null || !/ASK-QUESTION/.test(text)) return null;
  const input = { questions: [{ question: 'Which colour should the button be?', header: 'Colour', multiSelect: false, options: [
    { label: 'Red', description: 'A warm red' }, { label: 'Blue', description: 'A calm blue' },
  ] }] };
  return { kind: 'tool', text: 'FAKE-REPLY: asking', command: '', escalate: false, tool: { name: 'AskUserQuestion', input } };
}

export function startFakeAnthropic(opts: FakeModelOptions = {}, onRequest?: Parameters<typeof startFakeServer>[2]): Promise<FakeModelServer> {
  return startFakeServer(async (req, res, body, url) => {
    if (url.pathname === '/api/hello' || (req.method === 'GET' && url.pathname === '/')) return sendJson(res, 200, { ok: true });
    if (url.pathname === '/v1/models') return sendJson(res, 200, { data: [{ id: 'claude-fake', type: 'model', display_name: 'Fake' }], has_more: false });
    if (url.pathname === '/v1/messages/count_tokens') return sendJson(res, 200, { input_tokens: 42 });
    if (url.pathname !== '/v1/messages' || req.method !== 'POST') return sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `fake has no ${url.pathname}` } });
    const b = (body ?? {}) as { model?: string; stream?: boolean; output_config?: { format?: { type?: string } } };
    const model = b.model ?? 'claude-fake';
    const { text, toolResult, beside } = anthropicLastUser(body);
    const limit = toolResult === null ? limitCue(text) : null;
    if (limit) return refuse(res, limit);
    // The session-title side request asks for JSON output.
    const action: FakeAction = b.output_config?.format?.type === 'json_schema' ? { kind: 'json', value: { title: 'Fake title' } } : (askQuestion(text, toolResult) ?? scriptedAction(text, toolResult));
    // What the model was handed beside a tool result is said back whole, so a test sees the model itself read it.
    if (beside !== undefined && action.kind === 'text') action.text += `\nFAKE-READ-BESIDE: ${beside}`;
    if (action.kind !== 'json') await heldUntilReleased(text);
    await sleep(delayFor(text, opts));
    if (b.stream) streamAction(res, model, action);
    else jsonAction(res, model, action);
  }, opts, onRequest);
}
