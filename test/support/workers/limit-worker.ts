// A worker for tests that speaks the real IPC protocol and stands in for a CLI that runs into its vendor's usage limit
// (until the worker's own recognition of each real CLI's limit screen is in; then the real worker takes its place).
// Every input it is sent is appended as a JSON line to $LIMIT_WORKER_LOG — what would have been typed into the CLI.
// An input `HIT-LIMIT <n>s …` is delivered, then reported as a usage limit that resets n seconds later; any other is
// answered `answered: <text>` (the vendor refused that one turn; what is typed after it is taken).
import { appendFileSync } from 'node:fs';

const logPath = process.env.LIMIT_WORKER_LOG ?? '';
const send = (msg: Record<string, unknown>) => process.send?.(msg);

process.on('message', (raw: unknown) => {
  const msg = raw as { type: string; turnId?: string; text?: string; mode?: string };
  if (msg.type === 'init') {
    send({ type: 'ready', webPort: 0 });
    send({ type: 'status', status: 'idle' });
    setInterval(() => send({ type: 'heartbeat', at: Date.now() }), 5_000).unref();
    return;
  }
  if (msg.type === 'close') process.exit(0);
  if (msg.type !== 'input' && msg.type !== 'raw_input') return;
  const turnId = msg.turnId!;
  const text = msg.text ?? '';
  if (logPath) appendFileSync(logPath, `${JSON.stringify({ turnId, text, at: Date.now() })}\n`);
  send({ type: 'status', status: 'working' });
  send({ type: 'input_delivered', turnId, evidence: 'echo' });
  const asked = /^HIT-LIMIT (\d+)s/.exec(text);
  if (asked) {
    send({ type: 'usage_limit', state: 'limited', untilMs: Date.now() + Number(asked[1]) * 1000, excerpt: "You've hit your usage limit", turnId });
    send({ type: 'status', status: 'limited' });
    return;
  }
  setTimeout(() => {
    send({ type: 'final_output', turnId, text: `answered: ${text}` });
    send({ type: 'status', status: 'idle' });
  }, 50);
});
