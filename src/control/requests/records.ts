import { REDACTED as MARKER, type Scrubber } from '../../platform/scrub.js';
import type { Principal } from '../../platform/tokens.js';
import { CLIENT_REQUEST_ID_HEADER, CONNECTION_ID_HEADER } from '../../platform/transactions.js';

/**
 * What the journal keeps of a request (a JournalRecord, scrubbed when recorded), and what it gives
 * of one: the wire shape of GET /__sandbox/requests (RequestEntry), the summary the request
 * listener is told, the filter a reader passes.
 */

export const DEFAULT_REQUEST_JOURNAL_SIZE = 10_000;
/** A body longer than this (in characters) is cut, and flagged `truncated`. */
export const MAX_CAPTURED_BODY = 64 * 1024;
/** Characters of bodies the whole journal keeps; past it, the oldest entries lose theirs. */
export const JOURNAL_BODY_BUDGET = 32 * 1024 * 1024;

/** What one recorded request keeps: cheap references, turned into the wire shape when read. */
export interface JournalRecord {
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
  // Most answers are no page: a search for the word is a fraction of the pattern's.
  if (text.indexOf('"total":', text.length - 120) === -1) return null;
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

export const ID_PREFIX = 'req_';

/** A control endpoint called with an API token: when, what, and the client the token names. */
export interface ControlCallNote {
  at: number;
  method: string;
  path: string;
  client: string;
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

export function toEntry(record: JournalRecord): RequestEntry {
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
