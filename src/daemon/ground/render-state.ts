// RenderState: what the IM adapter remembers about a session's cards, persisted beside the sessions; core code never reads it.
import { z } from 'zod';
import { DisplayModeSchema } from '../../shared/ipc.js';
import { SESSION_ID_RE } from '../../shared/session-key.js';

/** Frozen cards are only kept to avoid re-freezing; older ones no longer matter, so the list is capped. */
export const RENDER_STATE_LIMITS = { frozenCardIds: 50, pendingSelections: 32 } as const;

const msgId = z.string().min(1).max(256);

export const RenderStateSchema = z.object({
  sessionId: z.string().regex(SESSION_ID_RE),
  /** The streaming card of the current turn, and the image key it shows. */
  currentCardMessageId: msgId.optional(),
  currentImageKey: z.string().min(1).max(512).optional(),
  display: DisplayModeSchema.default('screenshot'),
  frozenCardIds: z.array(msgId).max(RENDER_STATE_LIMITS.frozenCardIds).default([]),
  /** Selection cards still waiting for an answer: prompt id → card message id. */
  pendingSelectionCards: z.record(z.string().min(1).max(256), msgId).default({}),
  updatedAt: z.number().int().nonnegative(),
});
export type RenderState = z.infer<typeof RenderStateSchema>;

export function emptyRenderState(sessionId: string, now: number): RenderState {
  return RenderStateSchema.parse({ sessionId, updatedAt: now });
}

/** Appends a frozen card id, keeping only the newest RENDER_STATE_LIMITS.frozenCardIds. */
export function withFrozenCard(state: RenderState, messageId: string, now: number): RenderState {
  const frozen = [...state.frozenCardIds.filter((m) => m !== messageId), messageId].slice(-RENDER_STATE_LIMITS.frozenCardIds);
  return { ...state, frozenCardIds: frozen, updatedAt: now };
}
