// Runs one fake model server as its own process (used inside a loopback-only network namespace); logs requests on stdout.
import { startFakeAnthropic } from './anthropic.js';
import { startFakeGemini } from './gemini.js';
import { startFakeOpenAI } from './openai.js';
import type { FakeModelOptions, LoggedRequest } from './common.js';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const opts: FakeModelOptions = {
  port: Number(args.get('port') ?? 0),
  replyDelayMs: args.has('reply-delay-ms') ? Number(args.get('reply-delay-ms')) : undefined,
  slowDelayMs: args.has('slow-delay-ms') ? Number(args.get('slow-delay-ms')) : undefined,
};
const onRequest = (r: LoggedRequest): void => void process.stdout.write(`REQ ${JSON.stringify(r)}\n`);
const kind = args.get('kind');
const server = await (kind === 'anthropic' ? startFakeAnthropic(opts, onRequest) : kind === 'openai' ? startFakeOpenAI(opts, onRequest) : startFakeGemini(opts, onRequest));
process.stdout.write(`FAKE_LISTENING port=${server.port}\n`);
const stop = (): void => void server.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
