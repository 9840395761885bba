// What the monitor keeps for each turn in flight, and the limits of what it reads and keeps.
import { transcriptShowsText } from '../cli/literal-text.js';

export const MONITOR_LIMITS = {
  /** Scrollback read for a shell's final output: enough for a long command listing, cheap to capture. */
  outputHistoryLines: 2_000,
  /** Lines of the last screen sent with `cli_exit`. */
  exitTailLines: 40,
  /** User-turn texts kept for delivery proof: one delivery is in flight at a time, so a few are plenty. */
  userTurnTextsKept: 16,
  /**
   * A shell turn whose command the pane never shows complete (a `clear`, a full-screen program) still closes after
   * this long: far beyond a slow paste (a 30 KB command echoes in a few seconds on this loaded 2-core box).
   */
  unprovenTurnMs: 30_000,
} as const;

/** A message sent to the CLI whose turn has not ended yet. */
export interface OpenTurn {
  turnId: string;
  text: string;
  /** Pane (with history) just before the text went in: transcript-less CLIs diff against it. */
  before?: string;
  /**
   * The delivery proved the CLI took it. Until then an idle screen is the screen *before* the Enter (a tick can land
   * between typing and Enter after a quiet spell), so it must not close the turn with empty output.
   */
  confirmed: boolean;
  /** When the delivery proved it (Date.now()). */
  confirmedAt?: number;
  /** The CLI took it into the turn it was working on (steered in): that turn's end is this one's end too. */
  joined?: boolean;
}

/**
 * The transcript says the CLI took `text` into its running turn: the newest open turn with that text joins the turn
 * in progress (the steered message is the latest sent; an earlier one with the same text is the running turn itself).
 */
export function joinAbsorbed(turns: OpenTurn[], text: string): void {
  for (let i = turns.length - 1; i >= 0; i--) {
    const t = turns[i]!;
    if (t.joined || !transcriptShowsText(text, t.text)) continue;
    t.joined = true;
    return;
  }
}

/** A turn ended: the oldest open turn takes its output, and the turns taken into it end with it. */
export function takeEndedTurns(turns: OpenTurn[]): { turn: OpenTurn | undefined; joined: string[] } {
  const turn = turns.shift();
  const joined: string[] = [];
  while (turns[0]?.joined) joined.push(turns.shift()!.turnId);
  return { turn, joined };
}
