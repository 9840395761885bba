// Decodes a byte stream into text without splitting a UTF-8 character that straddles two chunks.
import { StringDecoder } from 'node:string_decoder';

/**
 * FIFO and pty reads end in the middle of a character about half the time (notes §5: 911 of 1,848 chunks);
 * `chunk.toString()` would turn each split into U+FFFD. StringDecoder keeps the partial bytes for the next chunk.
 */
export class Utf8Stream {
  private decoder = new StringDecoder('utf8');

  /** Text completed by this chunk; may be '' when the chunk only holds part of a character. */
  write(chunk: Buffer): string {
    return this.decoder.write(chunk);
  }

  /** Flushes what is left at end of stream (an incomplete character becomes U+FFFD) and starts afresh. */
  end(): string {
    const rest = this.decoder.end();
    this.decoder = new StringDecoder('utf8');
    return rest;
  }
}
