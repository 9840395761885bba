// The one place a worker turns a dialog on screen into the daemon's `selection` message (issue 28): the readiness gate
// and the prompt watcher both surface dialogs, and two copies of this had drifted (one dropped the typed-answer option).
import { IPC_LIMITS, type WorkerToDaemon } from '../../shared/ipc.js';
import type { SelectionState } from '../cli/types.js';

export function selectionMessage(s: SelectionState): Extract<WorkerToDaemon, { type: 'selection' }> {
  const last = IPC_LIMITS.options - 1;
  return {
    type: 'selection', promptId: s.id, title: s.title.slice(0, IPC_LIMITS.selectionTitle), kind: s.selectionKind,
    options: s.options.slice(0, IPC_LIMITS.options).map((o) => ({ label: o.label.slice(0, IPC_LIMITS.selectionLabel) || '?' })),
    defaultIndex: Math.min(s.defaultIndex, last),
    ...(s.textOption !== undefined && s.textOption <= last ? { textOption: s.textOption } : {}),
  };
}
