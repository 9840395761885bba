// What the monitor does about a prompt on screen: ask a person (selection), answer with keys, report one stuck.
import type { Logger } from '../../platform/log.js';
import type { WorkerToDaemon } from '../../shared/ipc.js';
import type { SessionBackend } from '../backend/types.js';
import type { PromptEffect } from '../lifecycle/selection.js';
import { sendSteps, sleepUntil } from './pane.js';
import { selectionMessage } from './selection-message.js';

export interface PromptEffectDeps {
  backend: SessionBackend;
  log: Logger;
  send(msg: WorkerToDaemon): void;
  /** Look at the screen again now (the keys just sent change it). */
  lookNow(): void;
}

export async function runPromptEffects(effects: readonly PromptEffect[], deps: PromptEffectDeps): Promise<void> {
  for (const e of effects) {
    switch (e.type) {
      case 'surface': {
        const s = e.selection;
        deps.log.info({ title: s.title, options: s.options.length }, 'prompt on screen: asking a person');
        deps.send(selectionMessage(s));
        break;
      }
      case 'send_keys': {
        await sleepUntil(e.notBefore);
        const r = await sendSteps(deps.backend, e.keys);
        if (!r.ok) deps.log.warn({ err: r.message }, 'answering a prompt failed');
        deps.lookNow();
        break;
      }
      case 'resolved':
        deps.log.info({ title: e.selection.title }, 'prompt went away');
        break;
      case 'stuck':
        deps.log.warn({ title: e.selection.title }, 'prompt still on screen after two answers');
        deps.send({ type: 'error', code: 'prompt_stuck', message: `the prompt "${e.selection.title.slice(0, 200)}" did not go away after the answer` });
        break;
      case 'ignored_choice':
        deps.log.info({ reason: e.reason }, 'selection choice ignored');
        break;
    }
  }
}
