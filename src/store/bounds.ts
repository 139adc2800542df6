/**
 * What bounds a world: the size of a record and of its fields, and the bytes clients may make it
 * hold (see WorldQuota). The store applies them at every write (write-change.ts).
 */

/** Bytes clients may write into a world by default (records, and their changes to generated data). */
export const DEFAULT_MAX_WORLD_BYTES = 256 * 1024 * 1024;
/** The longest text a record may hold in one field, but for the fields that carry a file's content. */
export const MAX_FIELD_CHARS = 64 * 1024;
/** The largest record (as JSON), but for records that carry a file's content. */
export const MAX_RECORD_BYTES = 1024 * 1024;
/** The fields that carry a file's content (base64): bounded by the request body's limit only. */
export const FILE_CONTENT_FIELDS: ReadonlySet<string> = new Set(['base64_string']);

/** Why a write was not kept: the world holds as much client-written data as it may. */
export class WorldFullError extends Error {
  constructor(
    readonly used: number,
    readonly limit: number,
  ) {
    super(`the world holds ${used} bytes written by clients, its limit is ${limit}`);
    this.name = 'WorldFullError';
  }
}

/** Why a write was not kept: a record, or a field of it, is larger than a record may be. */
export class RecordTooLargeError extends Error {
  constructor(
    readonly path: readonly string[],
    readonly size: number,
    readonly limit: number,
  ) {
    super(`${path.join('.')} holds ${size} characters, more than ${limit}`);
    this.name = 'RecordTooLargeError';
  }
}

/**
 * The world's bound on bytes. It counts what clients wrote into the world (its records and their
 * changes of generated data: `meta.client_bytes`, measured by the store at each write) and what the
 * app keeps for the world outside it, in memory (armed faults, MCP sessions, registered OAuth
 * clients: each holder measures its own). A write, or something new kept outside, that would pass
 * `limit` is refused with WorldFullError; whatever is removed makes room again.
 */
export class WorldQuota {
  readonly #outside: (() => number)[] = [];
  readonly #written: () => number;

  constructor(
    readonly limit: number,
    written: () => number,
  ) {
    this.#written = written;
  }

  /** Counts what a holder of the app keeps for the world outside it: `measure` answers its bytes now. */
  holdOutside(measure: () => number): void {
    this.#outside.push(measure);
  }

  /** Bytes the app keeps for the world outside it. */
  get outside(): number {
    let total = 0;
    for (const measure of this.#outside) total += measure();
    return total;
  }

  /** Throws WorldFullError when `written` bytes of clients, with what is kept outside and `more`, pass the bound. */
  check(written: number, more = 0): void {
    const used = written + this.outside + more;
    if (used > this.limit) throw new WorldFullError(used, this.limit);
  }

  /** Throws WorldFullError when `bytes` more kept outside the world would pass its bound. */
  assertRoom(bytes: number): void {
    if (bytes > 0) this.check(this.#written(), bytes);
  }

  /** Why `bytes` more kept outside the world do not fit (a WorldFullError not thrown), or null. */
  refusal(bytes: number): WorldFullError | null {
    const used = this.#written() + this.outside + bytes;
    return bytes > 0 && used > this.limit ? new WorldFullError(used, this.limit) : null;
  }
}

/** Size of a value as JSON (0 for none). */
export function sizeOf(value: unknown): number {
  if (value === undefined) return 0;
  return JSON.stringify(value)?.length ?? 0;
}

/**
 * About the size of a dataset as JSON, without serializing all of it (a POS dataset is some 1.7 MB,
 * 15-20 ms to serialize): each collection of many records is measured on a sample of them.
 */
export function estimatedSize(value: unknown, depth = 0): number {
  if (value === null || typeof value !== 'object') return sizeOf(value);
  if (depth > 1) return sizeOf(value);
  // The keys alone: a collection of 100,000 records is sampled, not copied into pairs.
  const keys = Object.keys(value);
  const child = (key: string) => (value as Record<string, unknown>)[key];
  if (keys.length <= SAMPLE * 2) {
    let total = 2;
    for (const key of keys) total += key.length + 4 + estimatedSize(child(key), depth + 1);
    return total;
  }
  let sampled = 0;
  const step = keys.length / SAMPLE;
  for (let i = 0; i < SAMPLE; i++) {
    const key = keys[Math.floor(i * step)] as string;
    sampled += key.length + 4 + sizeOf(child(key));
  }
  return Math.round((sampled / SAMPLE) * keys.length) + 2;
}

/** Records measured of a large collection to estimate its size. */
const SAMPLE = 32;

/** Whether a record holds a file's content (see FILE_CONTENT_FIELDS), at any depth. */
export function holdsFileContent(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  for (const [key, child] of Object.entries(value)) {
    if (FILE_CONTENT_FIELDS.has(key) && typeof child === 'string') return true;
    if (holdsFileContent(child)) return true;
  }
  return false;
}

/** Refuses a text longer than MAX_FIELD_CHARS in a value, but in the fields of a file's content. */
export function checkFields(path: readonly string[], value: unknown): void {
  const stack: { path: readonly string[]; value: unknown }[] = [{ path, value }];
  while (stack.length > 0) {
    const at = stack.pop() as { path: readonly string[]; value: unknown };
    if (typeof at.value === 'string') {
      const field = at.path[at.path.length - 1] ?? '';
      if (at.value.length > MAX_FIELD_CHARS && !FILE_CONTENT_FIELDS.has(field))
        throw new RecordTooLargeError(at.path, at.value.length, MAX_FIELD_CHARS);
      continue;
    }
    if (at.value === null || typeof at.value !== 'object') continue;
    for (const [key, child] of Object.entries(at.value))
      stack.push({ path: [...at.path, key], value: child });
  }
}
