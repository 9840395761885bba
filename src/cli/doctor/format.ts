// How `doctor` (and `hosts check`) print one verdict: level, label, detail, and the fix on its own line.
import type { DoctorLine } from './types.js';

export function formatDoctorLine(l: DoctorLine): string {
  return `${l.level.padEnd(4)} ${l.label.padEnd(18)} ${l.detail}${l.fix ? `\n     fix: ${l.fix}` : ''}`;
}
