/**
 * A first-in first-out store of texts as UTF-8 bytes, outside the JavaScript heap: texts are appended
 * at its end and released from its front, and each is read back by the position `append` gave it.
 * What it holds costs the garbage collector nothing (one buffer, however many texts), which is the
 * point: a ring that keeps thousands of recent texts as strings has each of them copied and marked by
 * every collection that finds it alive.
 *
 * Positions are logical and only grow; the buffer is allocated on the first append, compacted when
 * its front has been released, and grown when what is held needs it (see #room).
 */
export class ByteArena {
  #buffer: Buffer | null = null;
  /** The logical position of the buffer's first byte. */
  #base = 0;
  /** The logical position of the first byte still held, and of the next byte appended. */
  #start = 0;
  #end = 0;
  readonly #initialSize: number;

  constructor(initialSize = 16 * 1024) {
    this.#initialSize = initialSize;
  }

  /** The logical position the next append starts at. */
  get end(): number {
    return this.#end;
  }

  /** Bytes held (appended and not yet released). */
  get held(): number {
    return this.#end - this.#start;
  }

  /** Bytes allocated for the buffer. */
  get allocated(): number {
    return this.#buffer?.length ?? 0;
  }

  /** Appends `text`; returns its length in bytes (it starts at the `end` read before the call). */
  append(text: string): number {
    if (text.length === 0) return 0;
    // A UTF-16 unit takes at most three bytes in UTF-8 (a surrogate pair, two units, takes four).
    const buffer = this.#room(text.length * 3);
    const written = buffer.write(text, this.#end - this.#base, 'utf8');
    this.#end += written;
    return written;
  }

  /** The text of `length` bytes from logical position `start`, which must still be held. */
  read(start: number, length: number): string {
    if (length === 0) return '';
    const buffer = this.#buffer;
    if (buffer === null || start < this.#start || start + length > this.#end) {
      throw new RangeError('That text is no longer held');
    }
    const from = start - this.#base;
    return buffer.toString('utf8', from, from + length);
  }

  /** Releases every byte before logical position `position` (never moves backwards). */
  release(position: number): void {
    if (position > this.#end) position = this.#end;
    if (position > this.#start) this.#start = position;
  }

  /** Releases everything, and the buffer with it. */
  clear(): void {
    this.#buffer = null;
    this.#base = this.#start = this.#end;
  }

  /**
   * A buffer with `bytes` free after the end: the one in use when that fits, compacted when what is
   * held then fills at most three quarters of it, else a larger one (half as large again, or more),
   * filled to three quarters at most. So the buffer stays under twice the most bytes ever held (and
   * appended at once), and compacting copies about three bytes for each byte appended.
   */
  #room(bytes: number): Buffer {
    const buffer = this.#buffer;
    const held = this.#end - this.#start;
    if (buffer !== null && this.#end - this.#base + bytes <= buffer.length) return buffer;
    const needed = held + bytes;
    if (buffer !== null && needed * 4 <= buffer.length * 3) {
      buffer.copy(buffer, 0, this.#start - this.#base, this.#end - this.#base);
      this.#base = this.#start;
      return buffer;
    }
    let size = buffer === null ? this.#initialSize : Math.ceil(buffer.length * 1.5);
    if (size * 3 < needed * 4) size = Math.ceil((needed * 4) / 3);
    const grown = Buffer.allocUnsafeSlow(size);
    if (buffer !== null && held > 0) buffer.copy(grown, 0, this.#start - this.#base, this.#end - this.#base);
    this.#buffer = grown;
    this.#base = this.#start;
    return grown;
  }
}
