// The fake model servers answer like the real APIs: SSE replies, tool calls on cue, JSON side requests, request logs.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, startFakeGemini, startFakeOpenAI, type FakeModelServer } from '../support/fake-models/index.js';

let server: FakeModelServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${server!.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return res.text();
}

/** Concatenates every text delta / part of an SSE body. */
function sseData(body: string): Array<Record<string, unknown>> {
  return body.split(/\r?\n/).filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
}

describe('fake Anthropic', () => {
  it('streams FAKE-REPLY of the last user text and logs the request without credentials', async () => {
    server = await startFakeAnthropic();
    const body = await post('/v1/messages?beta=true', {
      model: 'm', stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text: '<system-reminder>x</system-reminder>' }, { type: 'text', text: 'hello' }] }, { role: 'system', content: 'env' }],
    }, { authorization: 'Bearer sk-secret' });
    const deltas = sseData(body).filter((d) => d.type === 'content_block_delta').map((d) => (d.delta as { text?: string }).text);
    expect(deltas).toEqual(['FAKE-REPLY: hello']);
    expect(server.requests[0]!.path).toBe('/v1/messages?beta=true');
    expect(JSON.stringify(server.requests)).not.toContain('sk-secret');
  });
  it('MAKE-FILE asks for the Bash tool, and the tool result gets a final answer', async () => {
    server = await startFakeAnthropic();
    const first = sseData(await post('/v1/messages', { stream: true, messages: [{ role: 'user', content: 'please MAKE-FILE a.txt' }] }));
    const tool = first.find((d) => d.type === 'content_block_start' && (d.content_block as { type: string }).type === 'tool_use');
    expect(tool).toBeDefined();
    expect(first.find((d) => d.type === 'content_block_delta' && (d.delta as { type: string }).type === 'input_json_delta')!.delta).toMatchObject({ partial_json: expect.stringContaining('touch a.txt') });
    const second = sseData(await post('/v1/messages', { stream: true, messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'done' }] }] }));
    expect(second.some((d) => (d.delta as { text?: string } | undefined)?.text === 'FAKE-REPLY: tool said: done')).toBe(true);
  });
});

describe('fake OpenAI Responses', () => {
  it('skips injected context, replies, and escalates MAKE-FILE', async () => {
    server = await startFakeOpenAI();
    const input = [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>x</environment_context>' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi codex' }] },
    ];
    const done = sseData(await post('/v1/responses', { model: 'fake-model', stream: true, input })).filter((d) => d.type === 'response.output_item.done');
    expect(done.map((d) => d.item)).toMatchObject([{ type: 'message', content: [{ text: 'FAKE-REPLY: hi codex' }] }]);
    const tool = sseData(await post('/v1/responses', { input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'MAKE-FILE b.txt' }] }] }))
      .filter((d) => d.type === 'response.output_item.done').map((d) => d.item as { type: string; arguments?: string });
    expect(JSON.parse(tool[1]!.arguments!)).toMatchObject({ cmd: 'touch b.txt', sandbox_permissions: 'require_escalated' });
  });
});

describe('fake Gemini', () => {
  it('streams a reply over SSE and answers the JSON router', async () => {
    server = await startFakeGemini();
    const sse = sseData(await post('/v1beta/models/gemini-x:streamGenerateContent?alt=sse', { contents: [{ role: 'user', parts: [{ text: 'hey' }] }] }));
    expect(sse[0]).toMatchObject({ candidates: [{ content: { parts: [{ text: 'FAKE-REPLY: hey' }] }, finishReason: 'STOP' }] });
    const router = JSON.parse(await post('/v1beta/models/flash:generateContent', { contents: [{ role: 'user', parts: [{ text: 'q' }] }], generationConfig: { responseMimeType: 'application/json' } })) as {
      candidates: Array<{ content: { parts: Array<{ text: string }> } }>;
    };
    expect(JSON.parse(router.candidates[0]!.content.parts[0]!.text)).toMatchObject({ complexity_score: 10 });
  });
});
