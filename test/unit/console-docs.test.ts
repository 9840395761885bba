// docs/operations.md tells the truth about where the console's history lives (issue 32 item 9).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSOLE_CHAT_FILE } from '../../src/daemon/im/local/console-chat-file.js';
import { ROOT } from '../support/larkmux-cli.js';

describe('docs/operations.md on console history', () => {
  it('names the file topics are saved in and how many entries it keeps, and does not say they live in memory', () => {
    const history = /\*\*History:\*\*([\s\S]*?)(?:\n- \*\*|\n\n)/.exec(readFileSync(join(ROOT, 'docs', 'operations.md'), 'utf8'))?.[1] ?? '';
    expect(history).toContain(CONSOLE_CHAT_FILE.name);
    expect(history).toContain(`last ${CONSOLE_CHAT_FILE.entriesPerTopic} entries`);
    expect(history).toContain(`every ${CONSOLE_CHAT_FILE.debounceMs / 1000} s`);
    expect(history).not.toMatch(/topics and their cards live in the daemon's memory/);
  });
});
