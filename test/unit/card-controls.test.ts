// What a streaming card offers per session status (issue 32 item 9): the ten keys and "Open terminal" only while a CLI runs.
import { describe, expect, it } from 'vitest';
import { cardControls } from '../../src/daemon/sessions/card-controls.js';
import { translator } from '../../src/shared/i18n.js';
import type { SessionStatus } from '../../src/shared/ipc.js';
import { CARD_KEY_ROW } from '../../src/shared/keys.js';

const t = translator('en');
const labels = (status: SessionStatus, viewUrl: string | null = 'http://127.0.0.1:7680/t/x') =>
  cardControls({ sessionId: 's1', status, display: 'screenshot', frozen: false, viewUrl: () => viewUrl ?? undefined, t });

describe('the controls of a streaming card per status', () => {
  const live = ['Text', 'Hide', t('card.webTerminal'), t('card.writeLink'), t('card.close')];
  const ended = ['Text', 'Hide', t('card.close')];
  it.each<[SessionStatus, number, string[]]>([
    ['starting', CARD_KEY_ROW.length, live],
    ['working', CARD_KEY_ROW.length, live],
    ['idle', CARD_KEY_ROW.length, live],
    ['waiting', CARD_KEY_ROW.length, live],
    ['limited', CARD_KEY_ROW.length, live],
    ['exited', 0, ended],
    ['failed', 0, ended],
  ])('%s: %i keys, buttons %j', (status, keys, buttons) => {
    const c = labels(status);
    expect(c.keys).toHaveLength(keys);
    expect(c.buttons.map((b) => b.label)).toEqual(buttons.map((b) => (b === 'Text' ? t('card.display.text') : b === 'Hide' ? t('card.display.hidden') : b)));
  });

  it('a failed card can still be closed, and offers no link into a terminal that has nothing running', () => {
    const c = labels('failed');
    expect(c.buttons.some((b) => b.value?.action === 'close' && b.value.sessionId === 's1')).toBe(true);
    expect(c.buttons.some((b) => b.url !== undefined || b.value?.action === 'write_link' || b.value?.action === 'key')).toBe(false);
  });

  it('no web terminal configured: no terminal button, whatever the status', () => {
    expect(labels('idle', null).buttons.some((b) => b.url)).toBe(false);
  });

  it('a frozen card offers nothing', () => {
    expect(cardControls({ sessionId: 's1', status: 'failed', display: 'text', frozen: true, viewUrl: () => 'x', t })).toEqual({ keys: [], buttons: [] });
  });
});
