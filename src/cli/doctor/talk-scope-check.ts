// Doctor line for bots whose talkers are wider than their operators on a CLI that runs what it is typed (issue 31 item 6).
import { talkScopeWarnings } from '../../shared/talk-scope.js';
import type { DoctorCheck } from './types.js';

export const talkScopeCheck: DoctorCheck = ({ config, t }) =>
  talkScopeWarnings(config?.bots ?? []).map((detail) => ({ level: 'WARN' as const, label: 'talkers', detail, fix: t('doctor.talkers.fix') }));
