// Types of bench-stdout.mjs, for the tests that import it.
export type BenchResult = { ok: true; line: string } | { ok: false; error: string };
export declare class ResultLineFilter {
  constructor(aside: (line: string) => void);
  push(chunk: string): void;
  finish(): BenchResult;
}
