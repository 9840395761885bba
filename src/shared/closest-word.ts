// "Did you mean": the known word closest to a misspelt one, by edit distance (pure; used for unknown config keys and values).

/** Levenshtein distance with adjacent transpositions (optimal string alignment): `prot` → `port` is one edit. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * How far a guess may be from the word typed: a third of its length, at least 1 and at most 3 edits. One edit for
 * short words keeps `cli` from suggesting `env`; a third of the length still catches a dropped or doubled letter and a
 * swap in longer ones (`workingdir`, `maxLiveClis` for `maxLiveCli`) without pairing unrelated settings.
 */
export const SUGGEST_LIMIT = { fraction: 1 / 3, min: 1, max: 3 } as const;

/** The candidate closest to `word` (case-insensitive), or null when none is close enough to be a likely typo. */
export function closestWord(word: string, candidates: readonly string[]): string | null {
  const limit = Math.min(SUGGEST_LIMIT.max, Math.max(SUGGEST_LIMIT.min, Math.floor(word.length * SUGGEST_LIMIT.fraction)));
  let best: { word: string; distance: number } | null = null;
  for (const c of candidates) {
    if (c === word) continue;
    const distance = editDistance(word.toLowerCase(), c.toLowerCase());
    if (distance <= limit && (!best || distance < best.distance)) best = { word: c, distance };
  }
  if (best) return best.word;
  // A short form of a longer name (`claude` for `claude-code`) is a likely slip too.
  const lower = word.toLowerCase();
  return lower.length >= 3 ? (candidates.find((c) => c.toLowerCase().startsWith(lower)) ?? null) : null;
}
