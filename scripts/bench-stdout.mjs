// The bench contract on stdout: one JSON object on one line, the last line, nothing else. A benchmark (or a child it
// runs) may still print a stray line; this keeps stdout to the result and moves every other line to stderr.

/** Holds back the newest complete line: each earlier line is not the result, so it goes to `aside` (stderr) at once. */
export class ResultLineFilter {
  #partial = '';
  #held = null;

  /** @param {(line: string) => void} aside where lines that are not the result go, as they arrive */
  constructor(aside) {
    this.aside = aside;
  }

  /** @param {string} chunk */
  push(chunk) {
    const lines = (this.#partial + chunk).split('\n');
    this.#partial = lines.pop() ?? '';
    for (const line of lines) this.#hold(line);
  }

  /** The result line (one JSON object), or an error text when the last line is not one. */
  finish() {
    if (this.#partial) this.#hold(this.#partial);
    this.#partial = '';
    const last = this.#held;
    this.#held = null;
    if (last === null) return { ok: false, error: 'the benchmark printed nothing on stdout' };
    let value;
    try {
      value = JSON.parse(last);
    } catch {
      value = undefined;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      this.aside(last);
      return { ok: false, error: 'the benchmark\'s last stdout line is not a JSON object' };
    }
    return { ok: true, line: last.trim() };
  }

  #hold(line) {
    if (line.trim() === '') return;
    if (this.#held !== null) this.aside(this.#held);
    this.#held = line;
  }
}
