// What a live streaming card offers per session status (issue 32 item 9): keys and the web terminal only while a CLI
// runs in the pane; a failed or exited session's card keeps what still helps there (its screen, and closing it).
import type { CardButton } from '../../shared/card-model.js';
import type { DisplayMode, SessionStatus } from '../../shared/ipc.js';
import type { KeyName } from '../../shared/keys.js';
import { CARD_KEY_ROW } from '../../shared/keys.js';
import type { MessageKey, Translate } from '../../shared/i18n.js';

/** Statuses with no CLI left to take keys: the key row, the web terminal and the write link would do nothing. */
const ENDED_STATUSES: ReadonlySet<SessionStatus> = new Set(['failed', 'exited']);

const DISPLAY_LABEL: Record<DisplayMode, MessageKey> = { screenshot: 'card.display.screenshot', text: 'card.display.text', hidden: 'card.display.hidden' };

export interface CardControlsInput {
  sessionId: string;
  status: SessionStatus;
  display: DisplayMode;
  frozen: boolean;
  /** The read-only terminal link (undefined: no web server); asked only for a card that shows it (live, not frozen). */
  viewUrl: () => string | undefined;
  t: Translate;
}

/** Pure decision: the key row and buttons of a streaming card. A frozen card offers nothing. */
export function cardControls(c: CardControlsInput): { keys: KeyName[]; buttons: CardButton[] } {
  if (c.frozen) return { keys: [], buttons: [] };
  const sid = c.sessionId;
  const ended = ENDED_STATUSES.has(c.status);
  const buttons: CardButton[] = [];
  for (const mode of ['screenshot', 'text', 'hidden'] as const) {
    if (mode !== c.display) buttons.push({ label: c.t(DISPLAY_LABEL[mode]), style: 'default', value: { action: 'display', sessionId: sid, mode } });
  }
  if (!ended) {
    const view = c.viewUrl();
    if (view) buttons.push({ label: c.t('card.webTerminal'), style: 'default', url: view });
    buttons.push({ label: c.t('card.writeLink'), style: 'default', value: { action: 'write_link', sessionId: sid } });
  }
  buttons.push({ label: c.t('card.close'), style: 'danger', value: { action: 'close', sessionId: sid } });
  return { keys: ended ? [] : [...CARD_KEY_ROW], buttons };
}
