// One capped reader for request bodies and downloads: the console's uploads, Lark webhooks, Lark attachment downloads,
// and the stdin of the host agent's one-shot verbs (put, changes, adopt).

/** What a capped read ends with: the whole body, `too_large` once it passed the cap (nothing kept), or `failed`. */
export type CappedRead = { kind: 'body'; data: Buffer } | { kind: 'too_large' } | { kind: 'failed'; error: unknown };

export interface ReadCappedOptions {
  /**
   * What happens to the stream once it passes the cap: `drain` reads the rest into nowhere (an HTTP request that
   * still needs an answer), `destroy` closes it.
   */
  onOverflow: 'drain' | 'destroy';
}

type CappableStream = NodeJS.ReadableStream & { destroy?: () => void };

/** Reads `stream` to its end, stopping (and dropping what came) as soon as it passes `maxBytes`; never rejects. */
export function readCapped(stream: CappableStream, maxBytes: number, opts: ReadCappedOptions): Promise<CappedRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer): void => {
      total += chunk.length;
      if (total <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      chunks.length = 0;
      stream.removeListener('data', onData);
      resolve({ kind: 'too_large' });
      if (opts.onOverflow === 'drain') stream.resume();
      else stream.destroy?.();
    };
    stream.on('data', onData);
    stream.on('end', () => resolve({ kind: 'body', data: Buffer.concat(chunks) }));
    stream.on('error', (error: unknown) => resolve({ kind: 'failed', error }));
    stream.on('aborted', () => resolve({ kind: 'failed', error: new Error('aborted') }));
  });
}
