// The argument of /grant and /revoke: a user's open id, or `chat` for everyone in this chat.
import { z } from 'zod';

export type GrantArg = { kind: 'user'; userId: string } | { kind: 'chat' };

export const GrantArgSchema = z
  .string()
  .trim()
  .regex(/^(chat|ou_[A-Za-z0-9_-]{4,128})$/, 'expected an open id (ou_…) or "chat"')
  .transform((s): GrantArg => (s === 'chat' ? { kind: 'chat' } : { kind: 'user', userId: s }));
