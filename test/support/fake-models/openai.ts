// Fake OpenAI Responses API (what Codex calls): SSE streaming, exec_command on cue (escalated), every request logged.
import type { ServerResponse } from 'node:http';
import {
  delayFor, FAKE_CALL_USAGE, limitCue, scriptedAction, sendJson, sendJsonWith, sleep, sseHeaders, startFakeServer, type FakeAction, type FakeLimit, type FakeModelOptions, type FakeModelServer,
} from './common.js';

type Item = { type?: string; role?: string; content?: Array<{ type?: string; text?: string }>; output?: unknown };

/** Injected context Codex sends as user messages before the real prompt. */
const CONTEXT = /^<(environment_context|user_instructions|permissions instructions|skills_instructions|collaboration_mode)/;

export function openaiLastUser(body: unknown): { text: string; toolResult: string | null } {
  const input = ((body as { input?: Item[] })?.input ?? []);
  for (let i = input.length - 1; i >= 0; i--) {
    const it = input[i]!;
    if (it.type === 'function_call_output') return { text: '', toolResult: typeof it.output === 'string' ? it.output : JSON.stringify(it.output) };
    if (it.type === 'message' && it.role === 'user') {
      const text = (it.content ?? []).map((c) => c.text ?? '').join('');
      if (!CONTEXT.test(text.trim())) return { text, toolResult: null };
    }
  }
  return { text: '', toolResult: null };
}

let counter = 0;
const nextId = (prefix: string): string => `${prefix}_fake_${String(++counter).padStart(6, '0')}`;

function event(res: ServerResponse, type: string, data: Record<string, unknown>): void {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

function stream(res: ServerResponse, model: string, action: FakeAction): void {
  sseHeaders(res);
  const responseId = nextId('resp');
  const base = { id: responseId, object: 'response', created_at: Math.floor(Date.now() / 1000), model };
  event(res, 'response.created', { response: { ...base, status: 'in_progress', output: [] } });
  const text = action.kind === 'json' ? JSON.stringify(action.value) : action.text;
  const msgId = nextId('msg');
  const message = { type: 'message', id: msgId, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
  event(res, 'response.output_item.added', { output_index: 0, item: { ...message, status: 'in_progress', content: [] } });
  event(res, 'response.content_part.added', { item_id: msgId, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
  event(res, 'response.output_text.delta', { item_id: msgId, output_index: 0, content_index: 0, delta: text });
  event(res, 'response.output_text.done', { item_id: msgId, output_index: 0, content_index: 0, text });
  event(res, 'response.output_item.done', { output_index: 0, item: message });
  const output: unknown[] = [message];
  if (action.kind === 'tool') {
    const args = action.escalate
      ? { cmd: action.command, sandbox_permissions: 'require_escalated', justification: `Fake model wants to run: ${action.command}` }
      : { cmd: action.command };
    const call = { type: 'function_call', id: nextId('fc'), call_id: nextId('call'), name: 'exec_command', arguments: JSON.stringify(args), status: 'completed' };
    event(res, 'response.output_item.added', { output_index: 1, item: { ...call, arguments: '', status: 'in_progress' } });
    event(res, 'response.output_item.done', { output_index: 1, item: call });
    output.push(call);
  }
  const { freshInput, cachedInput, output: out } = FAKE_CALL_USAGE;
  const usage = {
    input_tokens: freshInput + cachedInput, input_tokens_details: { cached_tokens: cachedInput },
    output_tokens: out, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: freshInput + cachedInput + out,
  };
  event(res, 'response.completed', { response: { ...base, status: 'completed', output, usage } });
  res.end();
}

/**
 * How the ChatGPT-backed Responses API refuses: 429 with `error.type` `usage_limit_reached` (the plan, `resets_at` in
 * epoch seconds and `resets_in_seconds`) for a usage limit, and `rate_limit_exceeded` with "try again in Ns" plus
 * `retry-after` for a short rate limit, which Codex retries by itself.
 */
function refuse(res: ServerResponse, limit: FakeLimit): void {
  const resetsAt = Math.floor(Date.now() / 1000) + limit.resetsInS;
  if (limit.kind === 'usage') {
    return sendJsonWith(res, 429, { 'x-codex-primary-used-percent': '100', 'x-codex-primary-reset-after-seconds': String(limit.resetsInS), 'x-codex-primary-window-minutes': '300' }, {
      error: { type: 'usage_limit_reached', message: 'The usage limit has been reached', plan_type: 'plus', resets_at: resetsAt, resets_in_seconds: limit.resetsInS },
    });
  }
  sendJsonWith(res, 429, { 'retry-after': String(limit.resetsInS) }, {
    error: { type: 'requests', code: 'rate_limit_exceeded', message: `Rate limit reached for requests. Please try again in ${limit.resetsInS}s.`, param: null },
  });
}

export function startFakeOpenAI(opts: FakeModelOptions = {}, onRequest?: Parameters<typeof startFakeServer>[2]): Promise<FakeModelServer> {
  return startFakeServer(async (req, res, body, url) => {
    if (url.pathname === '/v1/models' || url.pathname === '/models') return sendJson(res, 200, { object: 'list', data: [{ id: 'fake-model', object: 'model' }], models: [] });
    if (!/\/responses$/.test(url.pathname) || req.method !== 'POST') return sendJson(res, 404, { error: { message: `fake has no ${url.pathname}` } });
    const b = (body ?? {}) as { model?: string; text?: { format?: { type?: string } } };
    const { text, toolResult } = openaiLastUser(body);
    const limit = toolResult === null ? limitCue(text) : null;
    if (limit) return refuse(res, limit);
    // The thread-title side request asks for a json_schema text format.
    const action: FakeAction = b.text?.format?.type === 'json_schema' ? { kind: 'json', value: { title: 'Fake title' } } : scriptedAction(text, toolResult);
    await sleep(delayFor(text, opts));
    stream(res, b.model ?? 'fake-model', action);
  }, opts, onRequest);
}
