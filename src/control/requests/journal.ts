import { setImmediate as nextTurn } from 'node:timers/promises';
import { ByteArena } from '../../lib/byte-arena.js';
import { type Page, paginate } from '../../lib/pagination.js';
import { Scrubber } from '../../platform/scrub.js';
import { isAuthenticationPath } from './paths.js';
import { compileRowFilter, compileTextFilter } from './queries.js';
import {
  type ControlCallNote,
  DEFAULT_REQUEST_JOURNAL_SIZE,
  ID_PREFIX,
  JOURNAL_BODY_BUDGET,
  type JournalRecord,
  type RequestEntry,
  type RequestFilter,
  type RequestSummary,
  scrubRecord,
  toEntry,
} from './records.js';
import {
  bodyEnd,
  CHARS,
  FIELDS,
  FLAGS,
  META_BYTES,
  META_START,
  REQUEST_BYTES,
  REQUEST_TRUNCATED,
  RESPONSE_BYTES,
  RESPONSE_TRUNCATED,
  readBodies,
  readRow,
  SEQ,
  writeRow,
} from './rows.js';

/**
 * The request journal: every request the API answers, kept in a ring of the app's (in memory, never
 * in the world), with what a test wants to assert on: who called what, with which body, and what it
 * got back. The control endpoints, /docs and /openapi.json are not recorded. Capture does as little
 * as it can on the request's path: it takes what exists anyway (the url, the headers, the JSON text
 * of the answer), the journal packs it into bytes outside the JavaScript heap (numbers in one table,
 * texts in two byte arenas), and the wire shape is built only when the journal is read.
 */

const MAX_CONTROL_CALLS = 1000;

/** Slots of the ring allocated at first: it doubles up to its capacity as requests come. */
const FIRST_SLOTS = 64;

/** Longest a listing runs before it lets other requests in, in milliseconds. */
const SLICE_MS = 8;
/** Records between two readings of the clock: a few milliseconds at most, with the longest paths. */
const RECORDS_PER_CLOCK_READ = 32;

/**
 * A ring of the latest requests: memory stays flat whatever the traffic, and what it holds is not on
 * the JavaScript heap (a record kept as objects, its headers' strings, its answer's text, survives
 * young-generation collections and is then marked by every full one). What that buys, against the
 * same ring of scrubbed records kept as objects: 2-4 µs of the server's CPU on an authenticated read
 * of ~40 (docs/benchmarks.md, the read and the journal).
 */
export class RequestJournal {
  readonly capacity: number;
  readonly #bodyBudget: number;
  readonly #listener: ((summary: RequestSummary) => void) | undefined;
  /** What every record goes through before it is kept or told: see platform/scrub.ts. */
  readonly scrubber: Scrubber;
  /** FIELDS numbers a slot; a record's slot is its seq modulo the slots allocated. */
  #rows = new Float64Array(0);
  #slots = 0;
  /** The texts of each record but its bodies, and the bodies. */
  readonly #meta = new ByteArena();
  readonly #bodies = new ByteArena();
  /** Sequence number of the next record, of the oldest one held, and of the oldest holding bodies. */
  #next = 1;
  #first = 1;
  #bodyTail = 1;
  #bodyChars = 0;
  #controlCalls: ControlCallNote[] = [];

  constructor(
    capacity = DEFAULT_REQUEST_JOURNAL_SIZE,
    options: {
      onRequest?: ((summary: RequestSummary) => void) | undefined;
      /** The scrubber of the app, which knows its secrets (default: one that knows none). */
      scrubber?: Scrubber;
      bodyBudget?: number;
    } = {},
  ) {
    if (!Number.isInteger(capacity) || capacity < 0) {
      throw new RangeError(`The request journal size must be a whole number, not ${capacity}`);
    }
    this.capacity = capacity;
    this.#listener = options.onRequest;
    this.#bodyBudget = options.bodyBudget ?? JOURNAL_BODY_BUDGET;
    this.scrubber = options.scrubber ?? new Scrubber();
  }

  /** Whether requests are captured at all (a size of 0 and no listener: nothing to do). */
  get active(): boolean {
    return this.capacity > 0 || this.#listener !== undefined;
  }

  /** Whether bodies and headers are worth capturing. */
  get keeps(): boolean {
    return this.capacity > 0;
  }

  /** Number of requests held. */
  get size(): number {
    return this.#next - this.#first;
  }

  /** What the journal holds: its requests, and the bytes of their texts and bodies outside the heap. */
  footprint(): { requests: number; bytes: number; allocatedBytes: number } {
    return {
      requests: this.size,
      bytes: this.#meta.held + this.#bodies.held,
      allocatedBytes: this.#meta.allocated + this.#bodies.allocated + this.#rows.byteLength,
    };
  }

  /** Keeps `input` (its seq and chars are set here); nothing of it is held after the call. */
  record(input: JournalRecord): void {
    const seq = this.#next;
    this.#next += 1;
    input.seq = seq;
    // The one place every record goes through: an authentication route's bodies are never kept, and
    // nothing else holding a credential either (scrubbed once, here, not at every reading).
    if (input.redacted || isAuthenticationPath(input.path)) {
      input.redacted = true;
      input.requestBody = null;
      input.responseBody = null;
      input.requestTruncated = false;
      input.responseTruncated = false;
    }
    scrubRecord(this.scrubber, input);
    if (this.capacity > 0) {
      if (seq - this.#first >= this.capacity) this.#evict();
      const chars = (input.requestBody?.length ?? 0) + (input.responseBody?.length ?? 0);
      input.chars = chars;
      this.#pack(seq, input);
      this.#bodyChars += chars;
      if (this.#bodyChars > this.#bodyBudget) this.#shed(seq);
    } else {
      this.#first = this.#next;
    }
    if (this.#listener) {
      try {
        this.#listener({
          id: `${ID_PREFIX}${seq}`,
          time: new Date(input.at).toISOString(),
          method: input.method,
          path: input.path,
          status: input.status,
          duration_ms: input.durationMs,
          fault: input.fault,
        });
      } catch (error) {
        console.error('[unified-api-sandbox] the request listener failed:', error);
      }
    }
  }

  /**
   * Notes a control endpoint called with a client's API token (the readiness report's
   * `sandbox_only`): the control endpoints are not recorded, but a client's own code reaching for
   * them will meet a 404 in production. The latest MAX_CONTROL_CALLS are kept.
   */
  noteControlCall(call: ControlCallNote): void {
    if (this.capacity === 0) return;
    this.#controlCalls.push({ ...call, path: this.scrubber.path(call.path) });
    if (this.#controlCalls.length > MAX_CONTROL_CALLS) this.#controlCalls.shift();
  }

  controlCalls(): readonly ControlCallNote[] {
    return this.#controlCalls;
  }

  /** Forgets every request; ids go on from where they were. */
  clear(): void {
    this.#controlCalls = [];
    this.#rows = new Float64Array(0);
    this.#slots = 0;
    this.#meta.clear();
    this.#bodies.clear();
    this.#first = this.#next;
    this.#bodyTail = this.#next;
    this.#bodyChars = 0;
  }

  get(id: string): RequestEntry | undefined {
    if (!id.startsWith(ID_PREFIX)) return undefined;
    const digits = id.slice(ID_PREFIX.length);
    if (!/^[1-9]\d{0,15}$/.test(digits)) return undefined;
    const record = this.#at(Number(digits));
    return record ? toEntry(record) : undefined;
  }

  /** The requests that pass `filter`, newest first. */
  list(filter: RequestFilter = {}): RequestEntry[] {
    return this.#matching(filter).map((seq) => this.#entry(seq));
  }

  /**
   * The records held, oldest first, as captured (for the readiness report, which reads what the wire
   * shape leaves out: the caller a request's token named, its answer's page). Decoded at each call.
   */
  records(): JournalRecord[] {
    const out: JournalRecord[] = [];
    for (let seq = this.#first; seq < this.#next; seq += 1) {
      const record = this.#at(seq);
      if (record) out.push(record);
    }
    return out;
  }

  /**
   * As records(), decoded in slices of a few milliseconds with the event loop given back between
   * them (a full journal takes tens of milliseconds to decode). The records held when it was called
   * and still held when their turn came.
   */
  async recordsInSlices(): Promise<JournalRecord[]> {
    const out: JournalRecord[] = [];
    const last = this.#next;
    let sliceStart = performance.now();
    for (let seq = this.#first; seq < last; seq += 1) {
      if (seq % RECORDS_PER_CLOCK_READ === 0 && performance.now() - sliceStart > SLICE_MS) {
        await nextTurn();
        sliceStart = performance.now();
      }
      const record = this.#at(seq);
      if (record) out.push(record);
    }
    return out;
  }

  /** One page of the requests that pass `filter`, newest first. */
  page(filter: RequestFilter, page: number, size: number) {
    return this.#entries(paginate(this.#matching(filter), page, size));
  }

  /**
   * As page(), for the endpoint: the filter runs in slices of a few milliseconds, giving the event
   * loop back between them, so that a costly filter over a full journal (10,000 paths of thousands of
   * segments take up to a second) never holds the other requests up for long. The requests
   * recorded meanwhile are not in the page; those that left the ring meanwhile are left out.
   */
  async pageInSlices(filter: RequestFilter, page: number, size: number) {
    const test = this.#compile(filter);
    const out: number[] = [];
    let sliceStart = performance.now();
    for (let seq = this.#next - 1; seq >= this.#first; seq -= 1) {
      if (seq % RECORDS_PER_CLOCK_READ === 0 && performance.now() - sliceStart > SLICE_MS) {
        await nextTurn();
        sliceStart = performance.now();
      }
      if (test(seq)) out.push(seq);
    }
    return this.#entries(
      paginate(
        out.filter((seq) => this.#row(seq) !== -1),
        page,
        size,
      ),
    );
  }

  #entries(matching: Page<number>): Page<RequestEntry> {
    return { ...matching, items: matching.items.map((seq) => this.#entry(seq)) };
  }

  /** The wire shape of a record held (the seqs handed here are). */
  #entry(seq: number): RequestEntry {
    return toEntry(this.#at(seq) as JournalRecord);
  }

  /** The seqs of the records that pass `filter`, newest first. */
  #matching(filter: RequestFilter): number[] {
    const test = this.#compile(filter);
    const out: number[] = [];
    for (let seq = this.#next - 1; seq >= this.#first; seq -= 1) if (test(seq)) out.push(seq);
    return out;
  }

  /**
   * A filter over the records held, by seq: the numbers of a record are tested first, from its row;
   * its texts are decoded only when the filter names a path or a consumer (or an unusual method).
   */
  #compile(filter: RequestFilter): (seq: number) => boolean {
    const test = compileTextFilter(filter);
    const numbers = compileRowFilter(filter);
    const needsTexts = filter.path !== undefined || filter.consumer_id !== undefined;
    return (seq) => {
      const row = this.#row(seq);
      if (row === -1) return false;
      const verdict = numbers(this.#rows, row);
      if (verdict === false) return false;
      if (verdict === true && !needsTexts) return true;
      const record = this.#at(seq, false);
      return record !== undefined && test(record);
    };
  }

  /** The row of a record held, or -1. */
  #row(seq: number): number {
    if (seq < this.#first || seq >= this.#next || this.#slots === 0) return -1;
    const row = (seq % this.#slots) * FIELDS;
    return this.#rows[row + SEQ] === seq ? row : -1;
  }

  /** A record held, decoded (its bodies too unless `bodies` is false: a filter reads none). */
  #at(seq: number, bodies = true): JournalRecord | undefined {
    const row = this.#row(seq);
    if (row === -1) return undefined;
    const record = readRow(this.#rows, row, this.#meta);
    if (bodies) readBodies(this.#rows, row, this.#bodies, record);
    return record;
  }

  /** Writes `input` into the slot of its seq. */
  #pack(seq: number, input: JournalRecord): void {
    if (seq - this.#first >= this.#slots) this.#grow();
    writeRow(this.#rows, (seq % this.#slots) * FIELDS, input, this.#meta, this.#bodies);
  }

  /** Doubles the slots (up to the capacity), each record held moving to its slot in the new table. */
  #grow(): void {
    const slots = Math.min(this.capacity, Math.max(FIRST_SLOTS, this.#slots * 2));
    const rows = new Float64Array(slots * FIELDS);
    for (let seq = this.#first; seq < this.#next - 1; seq += 1) {
      const from = this.#row(seq);
      if (from === -1) continue;
      const to = (seq % slots) * FIELDS;
      rows.set(this.#rows.subarray(from, from + FIELDS), to);
    }
    this.#rows = rows;
    this.#slots = slots;
  }

  #evict(): void {
    const row = this.#row(this.#first);
    if (row !== -1) {
      const rows = this.#rows;
      this.#bodyChars -= rows[row + CHARS] as number;
      this.#meta.release((rows[row + META_START] as number) + (rows[row + META_BYTES] as number));
      this.#bodies.release(bodyEnd(rows, row));
      rows[row + SEQ] = 0;
    }
    this.#first += 1;
    if (this.#bodyTail < this.#first) this.#bodyTail = this.#first;
  }

  /** Drops the bodies of the oldest entries until the budget holds (the newest keeps its own). */
  #shed(newest: number): void {
    if (this.#bodyTail < this.#first) this.#bodyTail = this.#first;
    const rows = this.#rows;
    while (this.#bodyChars > this.#bodyBudget && this.#bodyTail < newest) {
      const row = this.#row(this.#bodyTail);
      if (row !== -1 && (rows[row + CHARS] as number) > 0) {
        this.#bodyChars -= rows[row + CHARS] as number;
        this.#bodies.release(bodyEnd(rows, row));
        rows[row + CHARS] = 0;
        let flags = rows[row + FLAGS] as number;
        if ((rows[row + REQUEST_BYTES] as number) >= 0) flags |= REQUEST_TRUNCATED;
        if ((rows[row + RESPONSE_BYTES] as number) >= 0) flags |= RESPONSE_TRUNCATED;
        rows[row + FLAGS] = flags;
        rows[row + REQUEST_BYTES] = -1;
        rows[row + RESPONSE_BYTES] = -1;
      }
      this.#bodyTail += 1;
    }
  }
}

declare module '../../platform/context.js' {
  interface Services {
    /** The latest requests the API answered, in memory (see control/requests/journal.ts). */
    requests: RequestJournal;
  }
}
