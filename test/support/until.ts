// Waits for an async condition (fake-feishu's waitFor takes only synchronous ones): polls until it yields a value.
export async function until<T>(what: string, f: () => T | undefined | null | false | Promise<T | undefined | null | false>, ms = 20_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
