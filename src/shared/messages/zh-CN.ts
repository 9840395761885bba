// Simplified Chinese messages: the same keys as en.ts (the compiler and test/unit/i18n.test.ts check it).
import type { en } from './en.js';

export const zhCN: Record<keyof typeof en, string> = {
  'common.larkmux': 'larkmux',
};
