// The touch key row (Esc, Ctrl+C, Tab, Enter, arrows): pointer events, and the terminal keeps focus (keyboard stays up).
import type { Translate } from '../shared/i18n.js';
import { keyBytes, keyLabel, type KeyName } from '../shared/keys.js';

export const TOOLBAR_KEYS: readonly KeyName[] = ['esc', 'ctrl_c', 'tab', 'enter', 'up', 'down', 'left', 'right'];

export function buildToolbar(nav: HTMLElement, t: Translate, press: (bytes: string) => void): void {
  for (const key of TOOLBAR_KEYS) {
    const button = document.createElement('button');
    button.type = 'button';
    button.tabIndex = -1;
    button.dataset.key = key;
    button.textContent = keyLabel(key, t);
    button.setAttribute('aria-label', keyLabel(key, t));
    // pointerdown + preventDefault: fires at once on touch, and the tap does not move focus away from the terminal.
    button.addEventListener('pointerdown', (ev) => {
      ev.preventDefault();
      press(keyBytes(key));
    });
    // Keyboard activation (detail 0) only: a pointer press was already handled above.
    button.addEventListener('click', (ev) => {
      if (ev.detail === 0) press(keyBytes(key));
    });
    nav.append(button);
  }
}
