// `larkmux send <file…> | --text <text> | --image <file>`: from inside a session's pane, posts into its topic.
import { resolve } from 'node:path';
import { SEND_REQUEST_LIMITS, SendResultSchema, type SendItem } from '../../shared/control-protocol.js';
import { NOT_IN_PANE, askFromPane, proveCaller, sayNoAnswer } from '../pane-caller.js';
import { EXIT, type CliCommand } from '../types.js';

function readStdin(): Promise<string> {
  return new Promise((res, rej) => {
    let text = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (d: string) => (text += d));
    process.stdin.on('end', () => res(text));
    process.stdin.on('error', rej);
  });
}

export const send: CliCommand = {
  name: 'send',
  summary: 'Inside a session\'s pane: post files, a picture or text into its chat topic',
  params: '[file…]',
  flags: [
    { name: 'text', value: 'text', description: 'Post this text (`-` reads it from stdin)' },
    { name: 'image', value: 'file', description: 'Post this file as a picture' },
  ],
  async run({ args, flags, paths, out, err }) {
    const items: SendItem[] = [];
    if (typeof flags.text === 'string') {
      const text = flags.text === '-' ? await readStdin() : flags.text;
      if (!text.trim()) {
        err('larkmux send: the text is empty');
        return EXIT.usage;
      }
      if (text.length > SEND_REQUEST_LIMITS.textChars) {
        err(`larkmux send: the text is longer than ${SEND_REQUEST_LIMITS.textChars} characters; send it as a file instead`);
        return EXIT.usage;
      }
      items.push({ kind: 'text', text });
    }
    if (typeof flags.image === 'string') items.push({ kind: 'image', path: resolve(flags.image) });
    for (const a of args) items.push({ kind: 'file', path: resolve(a) });
    if (items.length === 0) {
      err('usage: larkmux send <file…> | --text <text> | --image <file>');
      return EXIT.usage;
    }
    if (items.length > SEND_REQUEST_LIMITS.items) {
      err(`larkmux send: at most ${SEND_REQUEST_LIMITS.items} items at once`);
      return EXIT.usage;
    }
    const res = await askFromPane(paths.controlSocket, { cmd: 'send', caller: proveCaller(), items }, SendResultSchema);
    if (res.kind !== 'answer') return sayNoAnswer(res, 'send', err, err);
    if (!res.data.inPane) {
      err(NOT_IN_PANE);
      return EXIT.notInPane;
    }
    let failed = 0;
    for (const o of res.data.outcomes) {
      if (o.ok) out(`sent ${o.item}`);
      else {
        failed += 1;
        err(`not sent ${o.item}: ${o.error ?? 'unknown error'}`);
      }
    }
    return failed ? EXIT.failure : EXIT.ok;
  },
};
