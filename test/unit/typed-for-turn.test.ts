// A prompt's typed text with real files saved: a model CLI gets the quote and the quote's attachments; a program gets
// neither (only the person's own words and own files).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/log.js';
import { translator } from '../../src/shared/i18n.js';
import { typedForTurn } from '../../src/daemon/inbound/attachment-turn.js';
import type { ImAdapter, InboundAttachment, InboundMessage } from '../../src/daemon/im/types.js';
import type { CliSpec } from '../../src/shared/cli-spec.js';

const BYTES: Record<string, Buffer> = { f_own: Buffer.from('own file\n'), img_q: Buffer.from('89504e470d0a1a0a00', 'hex') };

describe('typedForTurn', () => {
  let cwd = '';
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  const run = async (cli: CliSpec) => {
    cwd = mkdtempSync(join(tmpdir(), 'lmx-turn-'));
    const texts: string[] = [];
    const im = {
      downloadAttachment: async (att: InboundAttachment) => ({ ok: true, value: new Uint8Array(BYTES[att.key]!) }),
      sendText: async (_p: unknown, text: string) => { texts.push(text); return { ok: true, value: { messageId: 'om_x' } }; },
    } as unknown as ImAdapter;
    const msg = {
      kind: 'message', appId: 'a', messageId: 'om_2', place: { chatId: 'oc', chatType: 'p2p' }, senderId: 'ou', senderType: 'user', text: 'x', mentionsBot: false, createTime: 0,
      attachments: [{ kind: 'file', key: 'f_own', name: 'own.txt', messageId: 'om_2' }],
      quote: { text: 'rm -rf notes', attachments: [{ kind: 'image', key: 'img_q', messageId: 'om_q' }] },
    } satisfies InboundMessage;
    const turn = { im, cwd, cli, limits: undefined, t: translator('en'), log: createLogger({ file: join(cwd, 'log') }), place: msg.place, replyTo: msg.messageId };
    return { typed: await typedForTurn(turn, 'look', msg), texts };
  };

  it('a model CLI: the quote, the person\'s words, the quote\'s picture first, then the own file', async () => {
    const { typed } = await run('codex');
    const lines = typed.text.split('\n');
    expect(lines.slice(0, 4)).toEqual(['Quoted message:', '> rm -rf notes', '', 'look']);
    expect(lines).toHaveLength(7);
    expect(lines[5]).toMatch(/\.png$/);
    expect(readFileSync(join(cwd, lines[6]!), 'utf8')).toBe('own file\n');
    expect(typed.quoteLeftOut).toBe(false);
    expect(typed.savedAs).toEqual([`own.txt → ${lines[6]}`]);
  });

  it('a shell: the person\'s words and own file only; the quote is left out and said so', async () => {
    const { typed } = await run('shell');
    const lines = typed.text.split('\n');
    expect(lines[0]).toBe('look');
    expect(lines).toHaveLength(2);
    expect(readFileSync(join(cwd, lines[1]!), 'utf8')).toBe('own file\n');
    expect(typed.text).not.toMatch(/rm -rf|Quoted|\.png/);
    expect(typed.quoteLeftOut).toBe(true);
  });
});
