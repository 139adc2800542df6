import { setImmediate as nextTurn } from 'node:timers/promises';
import { ByteArena } from '../../lib/byte-arena.js';
import { type Page, paginate } from '../../lib/pagination.js';
import { compilePathPattern } from '../../lib/path-pattern.js';
import { REDACTED as MARKER, Scrubber } from '../../platform/scrub.js';
import type { Principal } from '../../platform/tokens.js';
import { CLIENT_REQUEST_ID_HEADER, CONNECTION_ID_HEADER } from '../../platform/transactions.js';

/**
 * The request journal: every request the API answers, kept in a ring of the app's (in memory, never
 * in the world), with what a test wants to assert on: who called what, with which body, and what it
 * got back. The control endpoints, /docs and /openapi.json are not recorded. Capture does as little
 * as it can on the request's path: it takes what exists anyway (the url, the headers, the JSON text
 * of the answer), the journal packs it into bytes outside the JavaScript heap (numbers in one table,
 * texts in two byte arenas), and the wire shape is built only when the journal is read.
 */

export const DEFAULT_REQUEST_JOURNAL_SIZE = 10_000;
/** A body longer than this (in characters) is cut, and flagged `truncated`. */
export const MAX_CAPTURED_BODY = 64 * 1024;
/** Characters of bodies the whole journal keeps; past it, the oldest entries lose theirs. */
export const JOURNAL_BODY_BUDGET = 32 * 1024 * 1024;

// The journal's filter and the faults' match share the path patterns (lib/path-pattern.ts).
export { compilePathPattern, isPathPattern, type PathMatcher } from '../../lib/path-pattern.js';

// ---------------------------------------------------------------------------------------------------
// Paths.

/** The first segment of the authentication routes: POST /token, POST /mcp-token and the OAuth flow. */
const AUTHENTICATION_SEGMENTS = new Set(['token', 'mcp-token', 'oauth']);

/**
 * Whether a path is one of the authentication routes, whose bodies the journal never keeps: asked
 * and answered, they hold credentials (a client secret, access and refresh tokens, an authorization
 * code, the id of a sign-in in progress, in its HTML page). Decided on the first segment as a client
 * may spell it, whatever the router makes of it: percent-escapes decoded one by one, any case, empty
 * segments dropped, anything after it, so that `/TOKEN`, `//token`, `/token/` and `/%74oken/x` (all
 * 404s, their bodies still full of secrets) count as well. The OAuth metadata under /.well-known/ is
 * public and stays recorded.
 */
export function isAuthenticationPath(path: string): boolean {
  const decoded = path.includes('%') ? decodePercent(path) : path;
  let start = 0;
  while (start < decoded.length && decoded.charCodeAt(start) === SLASH) start += 1;
  const end = decoded.indexOf('/', start);
  return AUTHENTICATION_SEGMENTS.has(decoded.slice(start, end === -1 ? undefined : end).toLowerCase());
}

const SLASH = 0x2f;

/** Decodes each %XX on its own, so one malformed escape cannot hide the others. */
function decodePercent(text: string): string {
  return text.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** The consumer a path concerns: the segment after `/consumers/`, lower-cased. */
export function consumerOfPath(path: string): string | null {
  if (!path.startsWith('/consumers/')) return null;
  const end = path.indexOf('/', 11);
  const id = end === -1 ? path.slice(11) : path.slice(11, end);
  return id ? id.toLowerCase() : null;
}

// ---------------------------------------------------------------------------------------------------
// The journal.

/** What one recorded request keeps: cheap references, turned into the wire shape when read. */
interface JournalRecord {
  seq: number;
  /** Characters of body held (0 once dropped for the budget). */
  chars: number;
  at: number;
  method: string;
  path: string;
  url: string;
  /** The request headers as received: node's flat [name, value, ...] list over a socket, else Headers. */
  headers: Headers | string[] | null;
  /** The caller, when its token was checked: Authorization shows as its clientId (or mcp). */
  principal: JournalCaller | null;
  consumerId: string | null;
  /** The connection of the path or the vertical's active one; else the header's, when read. */
  connectionId: string | null;
  requestBody: string | null;
  requestTruncated: boolean;
  status: number;
  responseBody: string | null;
  responseTruncated: boolean;
  durationMs: number;
  fault: string | null;
  /** Whether the bodies were left out, as for every authentication route (absent: false). */
  redacted?: boolean;
  /** The page a list answered (read from its whole text, before any cut), for the readiness report. */
  page?: ListPage | null;
}

/** What the journal keeps of the caller behind a checked token. */
export type JournalCaller = Pick<Principal, 'kind' | 'clientid'>;

/** What a page of a list says of the list: {total, page, size}. */
export interface ListPage {
  total: number;
  page: number;
  size: number;
}

const PAGE_TAIL = /"total":(\d+),"page":(\d+),"size":(\d+)[,}]/;

/**
 * The page an answer's JSON text was ({items, total, page, size}), read from its last characters
 * only: the items are not parsed, and a page the journal cuts keeps what it was.
 */
export function listPageOf(text: string | null): ListPage | null {
  if (text === null || text.length < 30 || text.charCodeAt(text.length - 1) !== 0x7d) return null;
  const match = PAGE_TAIL.exec(text.slice(-120));
  return match ? { total: Number(match[1]), page: Number(match[2]), size: Number(match[3]) } : null;
}

/** A recorded request, as GET /__sandbox/requests and `sandbox.requests()` give it. */
export interface RequestEntry {
  id: string;
  /** Sandbox time at which the request arrived (ISO). */
  time: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  consumer_id: string | null;
  connection_id: string | null;
  client_request_id: string | null;
  request: {
    headers: Record<string, string>;
    /** Parsed JSON when the body is JSON (and whole), else its text; null when none was captured. */
    body: unknown;
    truncated: boolean;
  };
  /** 0 when no answer was sent (a dropped connection, a client that gave up). */
  status: number;
  response: { body: unknown; truncated: boolean };
  /**
   * Whether both bodies were left out (null, whatever was sent and answered), as they are for every
   * authentication route: their bodies carry credentials (see isAuthenticationPath).
   */
  redacted: boolean;
  duration_ms: number;
  /** The fault that fired on this request, if any. */
  fault: string | null;
}

/** A filter of the journal; every field is optional and they all apply. */
export interface RequestFilter {
  method?: string;
  /** A path pattern: `{param}` matches one segment, `*` one or more (see compilePathPattern). */
  path?: string;
  consumer_id?: string;
  /** An exact status (`201`, or 201) or a class (`4xx`, `5xx`). */
  status?: string | number;
  /** Sandbox time, inclusive: a Date or an ISO date-time. */
  since?: Date | string;
  until?: Date | string;
}

/** What the request listener (`onRequest`, the CLI's --log) is told of each request. */
export interface RequestSummary {
  id: string;
  time: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  fault: string | null;
}

/** One line of the CLI's --log: `GET /consumers 200 1.25ms`, with ` fault=<id>` when one fired. */
export function formatRequestLine(summary: RequestSummary): string {
  const status = summary.status === 0 ? '---' : String(summary.status);
  const fault = summary.fault ? ` fault=${summary.fault}` : '';
  return `${summary.method} ${summary.path} ${status} ${summary.duration_ms}ms${fault}`;
}

export type { JournalRecord };

const ID_PREFIX = 'req_';

/** A control endpoint called with an API token: when, what, and the client the token names. */
export interface ControlCallNote {
  at: number;
  method: string;
  path: string;
  client: string;
}

const MAX_CONTROL_CALLS = 1000;

// The numbers of each record, one row of a Float64Array per slot of the ring.
const SEQ = 0;
const AT = 1;
const DURATION = 2;
const STATUS = 3;
const FLAGS = 4;
const PAGE_TOTAL = 5;
const PAGE_NUMBER = 6;
const PAGE_SIZE = 7;
const META_START = 8;
const META_BYTES = 9;
const BODY_START = 10;
/** Bytes of the request body, then of the response body; -1 for none. */
const REQUEST_BYTES = 11;
const RESPONSE_BYTES = 12;
const CHARS = 13;
/** The method's place in METHODS plus one; 0 for another method (read from the texts). */
const METHOD = 14;
const FIELDS = 15;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

const REQUEST_TRUNCATED = 1;
const RESPONSE_TRUNCATED = 2;
const REDACTED = 4;
const HAS_PAGE = 8;

/** Slots of the ring allocated at first: it doubles up to its capacity as requests come. */
const FIRST_SLOTS = 64;

/**
 * The texts of a record but its bodies, packed as one text of three lines: a JSON array of method,
 * path, the caller's kind and client id, consumer, connection and fault; the url; the request headers
 * as name and value lines. Neither a url nor a header may hold a line break (fetch and node's parser
 * refuse one), so only the first line needs JSON's escapes.
 */
type PackedFields = [
  method: string,
  path: string,
  callerKind: JournalCaller['kind'] | null,
  callerId: string | null,
  consumerId: string | null,
  connectionId: string | null,
  fault: string | null,
];

function packMeta(input: JournalRecord): string {
  const caller = input.principal;
  const fields: PackedFields = [
    input.method,
    input.path,
    caller?.kind ?? null,
    caller?.clientid ?? null,
    input.consumerId,
    input.connectionId,
    input.fault,
  ];
  const headers = input.headers;
  let lines = '';
  if (Array.isArray(headers)) lines = headers.join('\n');
  else if (headers !== null) {
    const flat: string[] = [];
    for (const [name, value] of headers) flat.push(name, value);
    lines = flat.join('\n');
  }
  return `${JSON.stringify(fields)}\n${input.url}\n${lines}`;
}

function unpackMeta(text: string): { fields: PackedFields; url: string; headers: string[] } {
  const first = text.indexOf('\n');
  const second = text.indexOf('\n', first + 1);
  const lines = text.slice(second + 1);
  return {
    fields: JSON.parse(text.slice(0, first)) as PackedFields,
    url: text.slice(first + 1, second),
    headers: lines.length === 0 ? [] : lines.split('\n'),
  };
}

/**
 * A ring of the latest requests: memory stays flat whatever the traffic, and what it holds is not on
 * the JavaScript heap (a record kept as objects, its headers' strings, its answer's text, survives
 * thousands of young-generation collections and is then marked by every full one; on a busy server
 * that cost more than the rest of the journal's work).
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

  /** A record held, decoded (its bodies too unless `bodies` is false: see #withBodies). */
  #at(seq: number, bodies = true): JournalRecord | undefined {
    const row = this.#row(seq);
    if (row === -1) return undefined;
    const rows = this.#rows;
    const meta = unpackMeta(
      this.#meta.read(rows[row + META_START] as number, rows[row + META_BYTES] as number),
    );
    const [method, path, callerKind, callerId, consumerId, connectionId, fault] = meta.fields;
    const flags = rows[row + FLAGS] as number;
    const record: JournalRecord = {
      seq,
      chars: rows[row + CHARS] as number,
      at: rows[row + AT] as number,
      method,
      path,
      url: meta.url,
      headers: meta.headers,
      principal: callerKind !== null && callerId !== null ? { kind: callerKind, clientid: callerId } : null,
      consumerId,
      connectionId,
      requestBody: null,
      requestTruncated: (flags & REQUEST_TRUNCATED) !== 0,
      status: rows[row + STATUS] as number,
      responseBody: null,
      responseTruncated: (flags & RESPONSE_TRUNCATED) !== 0,
      durationMs: rows[row + DURATION] as number,
      fault,
    };
    if ((flags & REDACTED) !== 0) record.redacted = true;
    if ((flags & HAS_PAGE) !== 0) {
      const total = rows[row + PAGE_TOTAL] as number;
      record.page =
        total < 0
          ? null
          : { total, page: rows[row + PAGE_NUMBER] as number, size: rows[row + PAGE_SIZE] as number };
    }
    return bodies ? this.#withBodies(record) : record;
  }

  /** `record` with its bodies read (a filter reads none of them, so they are read for a match only). */
  #withBodies(record: JournalRecord): JournalRecord {
    const row = this.#row(record.seq);
    if (row === -1) return record;
    const rows = this.#rows;
    const start = rows[row + BODY_START] as number;
    const requestBytes = rows[row + REQUEST_BYTES] as number;
    const responseBytes = rows[row + RESPONSE_BYTES] as number;
    if (requestBytes >= 0) record.requestBody = this.#bodies.read(start, requestBytes);
    if (responseBytes >= 0) {
      record.responseBody = this.#bodies.read(start + Math.max(requestBytes, 0), responseBytes);
    }
    return record;
  }

  /** Writes `input` into the slot of `seq`: its numbers in the table, its texts in the arenas. */
  #pack(seq: number, input: JournalRecord): void {
    if (seq - this.#first >= this.#slots) this.#grow();
    const rows = this.#rows;
    const row = (seq % this.#slots) * FIELDS;
    rows[row + SEQ] = seq;
    rows[row + AT] = input.at;
    rows[row + DURATION] = input.durationMs;
    rows[row + STATUS] = input.status;
    rows[row + CHARS] = input.chars;
    rows[row + METHOD] = METHODS.indexOf(input.method) + 1;
    let flags = 0;
    if (input.requestTruncated) flags |= REQUEST_TRUNCATED;
    if (input.responseTruncated) flags |= RESPONSE_TRUNCATED;
    if (input.redacted) flags |= REDACTED;
    if (input.page !== undefined) {
      flags |= HAS_PAGE;
      rows[row + PAGE_TOTAL] = input.page?.total ?? -1;
      rows[row + PAGE_NUMBER] = input.page?.page ?? 0;
      rows[row + PAGE_SIZE] = input.page?.size ?? 0;
    }
    rows[row + FLAGS] = flags;
    const meta = this.#meta;
    rows[row + META_START] = meta.end;
    rows[row + META_BYTES] = meta.append(packMeta(input));
    const bodies = this.#bodies;
    rows[row + BODY_START] = bodies.end;
    rows[row + REQUEST_BYTES] = input.requestBody === null ? -1 : bodies.append(input.requestBody);
    rows[row + RESPONSE_BYTES] = input.responseBody === null ? -1 : bodies.append(input.responseBody);
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

  /** The body bytes of a record end here. */
  #bodyEnd(row: number): number {
    const rows = this.#rows;
    return (
      (rows[row + BODY_START] as number) +
      Math.max(rows[row + REQUEST_BYTES] as number, 0) +
      Math.max(rows[row + RESPONSE_BYTES] as number, 0)
    );
  }

  #evict(): void {
    const row = this.#row(this.#first);
    if (row !== -1) {
      const rows = this.#rows;
      this.#bodyChars -= rows[row + CHARS] as number;
      this.#meta.release((rows[row + META_START] as number) + (rows[row + META_BYTES] as number));
      this.#bodies.release(this.#bodyEnd(row));
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
        this.#bodies.release(this.#bodyEnd(row));
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

/** Longest a listing runs before it lets other requests in, in milliseconds. */
const SLICE_MS = 8;
/** Records between two readings of the clock: a few milliseconds at most, with the longest paths. */
const RECORDS_PER_CLOCK_READ = 32;

const STATUS_CLASS = /^[1-5]xx$/i;

/**
 * The part of a filter a record's texts answer, once its row has passed the rest (compileRowFilter):
 * the path pattern, the consumer, and a method outside METHODS.
 */
function compileTextFilter(filter: RequestFilter): (record: JournalRecord) => boolean {
  const method = filter.method?.toUpperCase();
  const path = filter.path === undefined ? undefined : compilePathPattern(filter.path);
  const consumer = filter.consumer_id?.toLowerCase();
  return (record) =>
    (method === undefined || record.method === method) &&
    (consumer === undefined || record.consumerId === consumer) &&
    (path === undefined || path(record.path));
}

/**
 * The part of a filter a record's row answers: false when its numbers fail it, true when they pass
 * it, undefined when its method must be read from its texts (one outside METHODS).
 */
function compileRowFilter(filter: RequestFilter): (rows: Float64Array, row: number) => boolean | undefined {
  const method = filter.method?.toUpperCase();
  const methodCode = method === undefined ? 0 : METHODS.indexOf(method) + 1;
  const status = filter.status === undefined ? undefined : String(filter.status);
  const statusClass = status !== undefined && STATUS_CLASS.test(status) ? Number(status[0]) : undefined;
  const exactStatus = status !== undefined && statusClass === undefined ? Number(status) : undefined;
  const since = filter.since === undefined ? undefined : new Date(filter.since).getTime();
  const until = filter.until === undefined ? undefined : new Date(filter.until).getTime();
  return (rows, row) => {
    const code = rows[row + METHOD] as number;
    const recordStatus = rows[row + STATUS] as number;
    const at = rows[row + AT] as number;
    if (exactStatus !== undefined && recordStatus !== exactStatus) return false;
    if (statusClass !== undefined && Math.floor(recordStatus / 100) !== statusClass) return false;
    if (since !== undefined && !(at >= since)) return false;
    if (until !== undefined && !(at <= until)) return false;
    if (method === undefined) return true;
    // A method of METHODS is known from its code; another one (or a filter on one) from the texts.
    if (code !== 0 && methodCode !== 0) return code === methodCode;
    if (code !== 0 || methodCode !== 0) return false;
    return undefined;
  };
}

function parseBody(text: string | null, truncated: boolean, json: boolean): unknown {
  if (text === null) return null;
  if (!json || truncated || text.length === 0) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A record with every credential it holds replaced by the marker (see platform/scrub.ts). */
export function scrubRecord(scrubber: Scrubber, record: JournalRecord): void {
  const url = record.url === '' ? '' : scrubber.url(record.url);
  // A path the url holds unchanged holds nothing either (the url was looked at whole).
  if (url === '' || url !== record.url || !url.includes(record.path))
    record.path = scrubber.path(record.path);
  record.url = url;
  const headers = record.headers;
  if (headers !== null) {
    let flat: readonly string[];
    if (Array.isArray(headers)) flat = headers;
    else {
      const list: string[] = [];
      for (const [name, value] of headers) list.push(name, value);
      flat = list;
    }
    record.headers = scrubber.headers(flat) as string[];
  }
  if (record.requestBody !== null) record.requestBody = scrubber.body(record.requestBody);
  if (record.responseBody !== null) record.responseBody = scrubber.body(record.responseBody);
}

/** The headers of a record, lower-cased names, repeated ones joined as fetch joins them. */
function headerRecord(headers: Headers | string[] | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers === null) return out;
  if (!Array.isArray(headers)) {
    for (const [name, value] of headers) out[name] = value;
    return out;
  }
  for (let i = 0; i + 1 < headers.length; i += 2) {
    const name = (headers[i] as string).toLowerCase();
    const value = headers[i + 1] as string;
    out[name] = Object.hasOwn(out, name) ? `${out[name]}, ${value}` : value;
  }
  return out;
}

/** One request header of a record as it was sent (repeated ones joined), or undefined. */
export function recordHeader(record: JournalRecord, name: string): string | undefined {
  const headers = record.headers;
  if (headers === null) return undefined;
  if (!Array.isArray(headers)) return headers.get(name) ?? undefined;
  let value: string | undefined;
  for (let i = 0; i + 1 < headers.length; i += 2) {
    if ((headers[i] as string).toLowerCase() !== name) continue;
    const next = headers[i + 1] as string;
    value = value === undefined ? next : `${value}, ${next}`;
  }
  return value;
}

/** The id of a record on the wire (req_<n>). */
export const recordId = (record: JournalRecord): string => `${ID_PREFIX}${record.seq}`;

/**
 * What the journal shows of the Authorization header: the caller its token named, `admin`, or the
 * marker; never the credential, nor what the scrubber kept of it for the readiness report.
 */
function shownAuthorization(kept: string, principal: JournalCaller | null): string {
  if (principal) return principal.kind === 'mcp' ? 'mcp' : principal.clientid;
  return kept === 'admin' ? 'admin' : MARKER;
}

function toEntry(record: JournalRecord): RequestEntry {
  // What the journal holds was scrubbed when it was recorded (see record()).
  const headers = headerRecord(record.headers);
  if (headers.authorization !== undefined) {
    headers.authorization = shownAuthorization(headers.authorization, record.principal);
  }
  const query: Record<string, string | string[]> = {};
  const at = record.url.indexOf('?');
  if (at !== -1) {
    for (const [name, value] of new URLSearchParams(record.url.slice(at + 1))) {
      const earlier = query[name];
      query[name] =
        earlier === undefined ? value : Array.isArray(earlier) ? [...earlier, value] : [earlier, value];
    }
  }
  const requestJson = /json/i.test(headers['content-type'] ?? '');
  return {
    id: `${ID_PREFIX}${record.seq}`,
    time: new Date(record.at).toISOString(),
    method: record.method,
    path: record.path,
    query,
    consumer_id: record.consumerId,
    connection_id: record.connectionId ?? headers[CONNECTION_ID_HEADER]?.toLowerCase() ?? null,
    client_request_id: headers[CLIENT_REQUEST_ID_HEADER] ?? null,
    request: {
      headers,
      body: parseBody(record.requestBody, record.requestTruncated, requestJson),
      truncated: record.requestTruncated,
    },
    status: record.status,
    response: {
      body: parseBody(record.responseBody, record.responseTruncated, true),
      truncated: record.responseTruncated,
    },
    redacted: record.redacted === true,
    duration_ms: record.durationMs,
    fault: record.fault,
  };
}

declare module '../../platform/context.js' {
  interface Services {
    /** The latest requests the API answered, in memory (see control/requests/journal.ts). */
    requests: RequestJournal;
  }
}
