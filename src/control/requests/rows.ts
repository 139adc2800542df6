import type { ByteArena } from '../../lib/byte-arena.js';
import type { JournalCaller, JournalRecord } from './records.js';

/**
 * How the journal holds a record: its numbers in one row of a Float64Array, its texts but its
 * bodies as one text in a byte arena, its bodies in another (see journal.ts for why: nothing of it
 * is on the JavaScript heap).
 */

// The numbers of each record, one row of a Float64Array per slot of the ring.
export const SEQ = 0;
export const AT = 1;
const DURATION = 2;
export const STATUS = 3;
export const FLAGS = 4;
const PAGE_TOTAL = 5;
const PAGE_NUMBER = 6;
const PAGE_SIZE = 7;
export const META_START = 8;
export const META_BYTES = 9;
const BODY_START = 10;
/** Bytes of the request body, then of the response body; -1 for none. */
export const REQUEST_BYTES = 11;
export const RESPONSE_BYTES = 12;
export const CHARS = 13;
/** The method's place in METHODS plus one; 0 for another method (read from the texts). */
export const METHOD = 14;
export const FIELDS = 15;

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

export const REQUEST_TRUNCATED = 1;
export const RESPONSE_TRUNCATED = 2;
const REDACTED = 4;
const HAS_PAGE = 8;

/**
 * The texts of a record but its bodies, as one text of lines: method, path, the caller's kind and
 * client id, consumer, connection, fault, url, then the request headers as name and value lines.
 * None of them may hold a line break (a url, a header and an id cannot; fetch and node's parser
 * refuse one) but the fault's id, which is written as JSON when there is one. An empty line is null:
 * none of them is ever empty. Plain concatenation: JSON.stringify of these fields took about half of
 * what packing a record cost.
 */
function packMeta(input: JournalRecord): string {
  const caller = input.principal;
  const headers = input.headers;
  let lines = '';
  if (Array.isArray(headers)) lines = headers.join('\n');
  else if (headers !== null) {
    const flat: string[] = [];
    for (const [name, value] of headers) flat.push(name, value);
    lines = flat.join('\n');
  }
  const fault = input.fault === null ? '' : JSON.stringify(input.fault);
  return `${input.method}\n${input.path}\n${caller?.kind ?? ''}\n${caller?.clientid ?? ''}\n${input.consumerId ?? ''}\n${input.connectionId ?? ''}\n${fault}\n${input.url}\n${lines}`;
}

/** The meta lines of a record, as packMeta wrote them (the headers are the lines from the ninth). */
const META_LINES = 8;

const orNull = (line: string | undefined): string | null => (line ? line : null);

/** Writes `input` into `row`: its numbers in the table, its texts in the arenas. */
export function writeRow(
  rows: Float64Array,
  row: number,
  input: JournalRecord,
  meta: ByteArena,
  bodies: ByteArena,
): void {
  rows[row + SEQ] = input.seq;
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
  rows[row + META_START] = meta.end;
  rows[row + META_BYTES] = meta.append(packMeta(input));
  rows[row + BODY_START] = bodies.end;
  rows[row + REQUEST_BYTES] = input.requestBody === null ? -1 : bodies.append(input.requestBody);
  rows[row + RESPONSE_BYTES] = input.responseBody === null ? -1 : bodies.append(input.responseBody);
}

/** The record of `row`, decoded without its bodies (see readBodies). */
export function readRow(rows: Float64Array, row: number, meta: ByteArena): JournalRecord {
  const lines = meta.read(rows[row + META_START] as number, rows[row + META_BYTES] as number).split('\n');
  const [method, path, callerKind, callerId, consumerId, connectionId, fault, url] = lines;
  const flags = rows[row + FLAGS] as number;
  const record: JournalRecord = {
    seq: rows[row + SEQ] as number,
    chars: rows[row + CHARS] as number,
    at: rows[row + AT] as number,
    method: method as string,
    path: path as string,
    url: url as string,
    headers: lines.length > META_LINES + 1 ? lines.slice(META_LINES) : [],
    principal:
      callerKind && callerId ? { kind: callerKind as JournalCaller['kind'], clientid: callerId } : null,
    consumerId: orNull(consumerId),
    connectionId: orNull(connectionId),
    requestBody: null,
    requestTruncated: (flags & REQUEST_TRUNCATED) !== 0,
    status: rows[row + STATUS] as number,
    responseBody: null,
    responseTruncated: (flags & RESPONSE_TRUNCATED) !== 0,
    durationMs: rows[row + DURATION] as number,
    fault: fault ? (JSON.parse(fault) as string) : null,
  };
  if ((flags & REDACTED) !== 0) record.redacted = true;
  if ((flags & HAS_PAGE) !== 0) {
    const total = rows[row + PAGE_TOTAL] as number;
    record.page =
      total < 0
        ? null
        : { total, page: rows[row + PAGE_NUMBER] as number, size: rows[row + PAGE_SIZE] as number };
  }
  return record;
}

/** `record`, the record of `row`, with its bodies read. */
export function readBodies(rows: Float64Array, row: number, bodies: ByteArena, record: JournalRecord): void {
  const start = rows[row + BODY_START] as number;
  const requestBytes = rows[row + REQUEST_BYTES] as number;
  const responseBytes = rows[row + RESPONSE_BYTES] as number;
  if (requestBytes >= 0) record.requestBody = bodies.read(start, requestBytes);
  if (responseBytes >= 0) record.responseBody = bodies.read(start + Math.max(requestBytes, 0), responseBytes);
}

/** Where the body bytes of the record of `row` end. */
export function bodyEnd(rows: Float64Array, row: number): number {
  return (
    (rows[row + BODY_START] as number) +
    Math.max(rows[row + REQUEST_BYTES] as number, 0) +
    Math.max(rows[row + RESPONSE_BYTES] as number, 0)
  );
}
