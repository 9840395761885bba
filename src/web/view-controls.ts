// The view controls above the terminal: A− / A+ (text size, remembered) and Fit width (write pages only).
import { translator, type Locale } from '../shared/i18n.js';
import type { SizingState } from './terminal-sizing.js';

export interface ViewControlActions {
  stepFont(direction: -1 | 1): void;
  setFit(on: boolean): void;
  setText(on: boolean): void;
}

function button(text: string, label: string, onPress: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.tabIndex = -1;
  b.textContent = text;
  b.title = label;
  b.setAttribute('aria-label', label);
  // As the key toolbar: act on pointerdown and keep the terminal focused (a phone keyboard stays up).
  b.addEventListener('pointerdown', (ev) => {
    ev.preventDefault();
    onPress();
  });
  b.addEventListener('click', (ev) => {
    if (ev.detail === 0) onPress();
  });
  return b;
}

/** Fills `host` with the controls; the returned function shows a new sizing state. */
export function buildViewControls(host: HTMLElement, locale: Locale, actions: ViewControlActions): (s: SizingState) => void {
  const t = translator(locale);
  host.setAttribute('aria-label', t('webterm.view.controls'));
  const smaller = button(t('webterm.view.smaller'), t('webterm.view.smallerLabel'), () => actions.stepFont(-1));
  smaller.dataset.control = 'smaller';
  const size = document.createElement('span');
  size.className = 'view-size';
  const larger = button(t('webterm.view.larger'), t('webterm.view.largerLabel'), () => actions.stepFont(1));
  larger.dataset.control = 'larger';
  let fitting = false;
  const fit = button(t('webterm.view.fit'), t('webterm.view.fitLabel'), () => actions.setFit(!fitting));
  fit.dataset.control = 'fit';
  let texting = false;
  const text = button(t('webterm.view.text'), t('webterm.view.textLabel'), () => actions.setText(!texting));
  text.dataset.control = 'text';
  host.append(smaller, size, larger, fit, text);
  return (s) => {
    fitting = s.fitting;
    texting = s.textMode;
    text.hidden = !s.readOnly;
    text.setAttribute('aria-pressed', String(s.textMode));
    size.textContent = t('webterm.view.size', { px: Math.round(s.fontSize * 10) / 10 });
    fit.hidden = s.readOnly;
    fit.setAttribute('aria-pressed', String(s.fitting));
  };
}
