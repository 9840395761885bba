// Fake Gemini API (what Gemini CLI calls): streamGenerateContent SSE, JSON generateContent for its router, tool calls on cue.
import type { ServerResponse } from 'node:http';
import {
  delayFor, FAKE_CALL_USAGE, limitCue, scriptedAction, sendJson, sleep, startFakeServer, type FakeAction, type FakeLimit, type FakeModelOptions, type FakeModelServer,
} from './common.js';

type Part = { text?: string; functionResponse?: { response?: unknown } };
type Content = { role?: string; parts?: Part[] };

export function geminiLastUser(body: unknown): { text: string; toolResult: string | null } {
  const contents = ((body as { contents?: Content[] })?.contents ?? []).filter((c) => c.role === 'user' || c.role === undefined);
  const last = contents[contents.length - 1];
  if (!last) return { text: '', toolResult: null };
  const fr = (last.parts ?? []).find((p) => p.functionResponse);
  if (fr?.functionResponse) {
    const r = fr.functionResponse.response as { output?: unknown } | undefined;
    return { text: '', toolResult: typeof r?.output === 'string' ? r.output : JSON.stringify(r ?? {}) };
  }
  // The first turn carries the CLI's <session_context> as an earlier part of the same content.
  const texts = (last.parts ?? []).flatMap((p) => (typeof p.text === 'string' && !p.text.startsWith('<session_context>') ? [p.text] : []));
  return { text: texts[texts.length - 1] ?? '', toolResult: null };
}

const { freshInput, cachedInput, output } = FAKE_CALL_USAGE;
const USAGE = {
  promptTokenCount: freshInput + cachedInput, cachedContentTokenCount: cachedInput, candidatesTokenCount: output,
  totalTokenCount: freshInput + cachedInput + output,
};

function partsFor(action: FakeAction): unknown[] {
  if (action.kind === 'json') return [{ text: JSON.stringify(action.value) }];
  const parts: unknown[] = [{ text: action.text }];
  if (action.kind === 'tool') parts.push({ functionCall: { name: 'run_shell_command', args: { command: action.command, description: 'Fake tool call' } } });
  return parts;
}

function streamSse(res: ServerResponse, action: FakeAction): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = { candidates: [{ content: { role: 'model', parts: partsFor(action) }, finishReason: 'STOP', index: 0 }], usageMetadata: USAGE, modelVersion: 'fake' };
  res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
  res.end();
}

/** Structured side requests (model router, next-speaker check) get one JSON object that satisfies all of them. */
const ROUTER_JSON = { complexity_reasoning: 'fake router', complexity_score: 10, reasoning: 'fake', next_speaker: 'user', model_choice: 'flash' };

/**
 * How the Gemini API refuses: 429 `RESOURCE_EXHAUSTED` with a QuotaFailure naming the quota (per day for a usage
 * limit, per minute for a rate limit) and a RetryInfo delay.
 */
function refuse(res: ServerResponse, limit: FakeLimit): void {
  const quotaId = limit.kind === 'usage' ? 'GenerateRequestsPerDayPerProjectPerModel-FreeTier' : 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier';
  const metric = 'generativelanguage.googleapis.com/generate_content_free_tier_requests';
  sendJson(res, 429, { error: {
    code: 429, status: 'RESOURCE_EXHAUSTED',
    message: `You exceeded your current quota, please check your plan and billing details. * Quota exceeded for metric: ${metric}, limit: 50\nPlease retry in ${limit.resetsInS}s.`,
    details: [
      { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: metric, quotaId, quotaDimensions: { location: 'global', model: 'gemini-fake' }, quotaValue: '50' }] },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${limit.resetsInS}s` },
    ],
  } });
}

export function startFakeGemini(opts: FakeModelOptions = {}, onRequest?: Parameters<typeof startFakeServer>[2]): Promise<FakeModelServer> {
  return startFakeServer(async (req, res, body, url) => {
    const m = /\/models\/([^/:]+):(\w+)$/.exec(url.pathname);
    if (!m || req.method !== 'POST') {
      if (/\/models$/.test(url.pathname)) return sendJson(res, 200, { models: [{ name: 'models/gemini-fake' }] });
      return sendJson(res, 404, { error: { code: 404, message: `fake has no ${url.pathname}`, status: 'NOT_FOUND' } });
    }
    const method = m[2];
    if (method === 'countTokens') return sendJson(res, 200, { totalTokens: 42 });
    const b = (body ?? {}) as { generationConfig?: { responseMimeType?: string; responseJsonSchema?: unknown; responseSchema?: unknown } };
    const wantsJson = b.generationConfig?.responseMimeType === 'application/json' || !!b.generationConfig?.responseJsonSchema || !!b.generationConfig?.responseSchema;
    const { text, toolResult } = geminiLastUser(body);
    const limit = toolResult === null ? limitCue(text) : null;
    if (limit) return refuse(res, limit);
    const action: FakeAction = wantsJson ? { kind: 'json', value: ROUTER_JSON } : scriptedAction(text, toolResult);
    if (method === 'streamGenerateContent') {
      await sleep(delayFor(text, opts));
      return streamSse(res, action);
    }
    if (method === 'generateContent') {
      if (!wantsJson) await sleep(delayFor(text, opts));
      return sendJson(res, 200, { candidates: [{ content: { role: 'model', parts: partsFor(action) }, finishReason: 'STOP', index: 0 }], usageMetadata: USAGE });
    }
    return sendJson(res, 404, { error: { code: 404, message: `fake has no method ${method}`, status: 'NOT_FOUND' } });
  }, opts, onRequest);
}
