import type { IncomingMessage } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { errors } from '../lib/errors.js';
import { type Page, pageQuery, paginate, servicePage } from '../lib/pagination.js';
import { checkPathPattern, compilePathPattern, MAX_PATTERN_SEGMENTS } from '../lib/path-pattern.js';
import type { AppEnv, Services } from '../platform/context.js';
import { emptyResponse, errorResponses, jsonContent } from '../platform/openapi.js';
import type { Principal } from '../platform/tokens.js';
import {
  activeConnectionOf,
  CLIENT_REQUEST_ID_HEADER,
  CONNECTION_ID_HEADER,
  connectionPreference,
  ONE_API_OF_AREA,
} from '../platform/transactions.js';
import { admin } from './sandbox.routes.js';

/**
 * The request journal: every request the API answers, kept in a ring of the app's (in memory, never
 * in the world), with what a test wants to assert on: who called what, with which body, and what it
 * got back. The control endpoints, /docs and /openapi.json are not recorded. Capture does as little
 * as it can on the request's path: it keeps references to what exists anyway (the url, the headers,
 * the JSON text of the answer) and builds the wire shape only when the journal is read.
 */

export const DEFAULT_REQUEST_JOURNAL_SIZE = 10_000;
/** A body longer than this (in characters) is cut, and flagged `truncated`. */
export const MAX_CAPTURED_BODY = 64 * 1024;
/** Characters of bodies the whole journal keeps; past it, the oldest entries lose theirs. */
export const JOURNAL_BODY_BUDGET = 32 * 1024 * 1024;

const tags = ['Sandbox control'];

// The journal's filter and the faults' match share the path patterns (lib/path-pattern.ts).
export { compilePathPattern, isPathPattern, type PathMatcher } from '../lib/path-pattern.js';

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
  principal: Principal | null;
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

/** A ring of the latest requests: memory stays flat whatever the traffic. */
export class RequestJournal {
  readonly capacity: number;
  readonly #bodyBudget: number;
  readonly #slots: (JournalRecord | undefined)[];
  readonly #listener: ((summary: RequestSummary) => void) | undefined;
  readonly #adminToken: string | null;
  /** Sequence number of the next record, of the oldest one held, and of the oldest holding bodies. */
  #next = 1;
  #first = 1;
  #bodyTail = 1;
  #bodyChars = 0;

  constructor(
    capacity = DEFAULT_REQUEST_JOURNAL_SIZE,
    options: {
      onRequest?: ((summary: RequestSummary) => void) | undefined;
      /** The admin token, shown as `admin` where a request sends it as its Authorization. */
      adminToken?: string | null;
      bodyBudget?: number;
    } = {},
  ) {
    if (!Number.isInteger(capacity) || capacity < 0) {
      throw new RangeError(`The request journal size must be a whole number, not ${capacity}`);
    }
    this.capacity = capacity;
    this.#slots = new Array(capacity);
    this.#listener = options.onRequest;
    this.#bodyBudget = options.bodyBudget ?? JOURNAL_BODY_BUDGET;
    this.#adminToken = options.adminToken ?? null;
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

  /** Keeps `input` (its seq and chars are set here). */
  record(input: JournalRecord): void {
    const seq = this.#next;
    this.#next += 1;
    input.seq = seq;
    // The one place every record goes through: an authentication route's bodies are never kept.
    if (input.redacted || isAuthenticationPath(input.path)) {
      input.redacted = true;
      input.requestBody = null;
      input.responseBody = null;
      input.requestTruncated = false;
      input.responseTruncated = false;
    }
    if (this.capacity > 0) {
      if (seq - this.#first >= this.capacity) this.#evict();
      const chars = (input.requestBody?.length ?? 0) + (input.responseBody?.length ?? 0);
      input.chars = chars;
      this.#slots[seq % this.capacity] = input;
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

  /** Forgets every request; ids go on from where they were. */
  clear(): void {
    this.#slots.fill(undefined);
    this.#first = this.#next;
    this.#bodyTail = this.#next;
    this.#bodyChars = 0;
  }

  get(id: string): RequestEntry | undefined {
    if (!id.startsWith(ID_PREFIX)) return undefined;
    const digits = id.slice(ID_PREFIX.length);
    if (!/^[1-9]\d{0,15}$/.test(digits)) return undefined;
    const record = this.#at(Number(digits));
    return record ? toEntry(record, this.#adminToken) : undefined;
  }

  /** The requests that pass `filter`, newest first. */
  list(filter: RequestFilter = {}): RequestEntry[] {
    return this.#matching(filter).map((record) => toEntry(record, this.#adminToken));
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
    const test = compileFilter(filter);
    const out: JournalRecord[] = [];
    let sliceStart = performance.now();
    for (let seq = this.#next - 1; seq >= this.#first; seq -= 1) {
      if (seq % RECORDS_PER_CLOCK_READ === 0 && performance.now() - sliceStart > SLICE_MS) {
        await nextTurn();
        sliceStart = performance.now();
      }
      const record = this.#at(seq);
      if (record && test(record)) out.push(record);
    }
    return this.#entries(paginate(out, page, size));
  }

  #entries(matching: Page<JournalRecord>): Page<RequestEntry> {
    return { ...matching, items: matching.items.map((record) => toEntry(record, this.#adminToken)) };
  }

  #matching(filter: RequestFilter): JournalRecord[] {
    const test = compileFilter(filter);
    const out: JournalRecord[] = [];
    for (let seq = this.#next - 1; seq >= this.#first; seq -= 1) {
      const record = this.#at(seq);
      if (record && test(record)) out.push(record);
    }
    return out;
  }

  #at(seq: number): JournalRecord | undefined {
    if (seq < this.#first || seq >= this.#next || this.capacity === 0) return undefined;
    const record = this.#slots[seq % this.capacity];
    return record?.seq === seq ? record : undefined;
  }

  #evict(): void {
    const oldest = this.#at(this.#first);
    if (oldest) {
      this.#bodyChars -= oldest.chars;
      this.#slots[this.#first % this.capacity] = undefined;
    }
    this.#first += 1;
    if (this.#bodyTail < this.#first) this.#bodyTail = this.#first;
  }

  /** Drops the bodies of the oldest entries until the budget holds (the newest keeps its own). */
  #shed(newest: number): void {
    if (this.#bodyTail < this.#first) this.#bodyTail = this.#first;
    while (this.#bodyChars > this.#bodyBudget && this.#bodyTail < newest) {
      const record = this.#at(this.#bodyTail);
      if (record && record.chars > 0) {
        this.#bodyChars -= record.chars;
        record.chars = 0;
        if (record.requestBody !== null) record.requestTruncated = true;
        if (record.responseBody !== null) record.responseTruncated = true;
        record.requestBody = null;
        record.responseBody = null;
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

function compileFilter(filter: RequestFilter): (record: JournalRecord) => boolean {
  const method = filter.method?.toUpperCase();
  const path = filter.path === undefined ? undefined : compilePathPattern(filter.path);
  const consumer = filter.consumer_id?.toLowerCase();
  const status = filter.status === undefined ? undefined : String(filter.status);
  const statusClass = status !== undefined && STATUS_CLASS.test(status) ? Number(status[0]) : undefined;
  const exactStatus = status !== undefined && statusClass === undefined ? Number(status) : undefined;
  const since = filter.since === undefined ? undefined : new Date(filter.since).getTime();
  const until = filter.until === undefined ? undefined : new Date(filter.until).getTime();
  return (record) =>
    (method === undefined || record.method === method) &&
    (consumer === undefined || record.consumerId === consumer) &&
    (exactStatus === undefined || record.status === exactStatus) &&
    (statusClass === undefined || Math.floor(record.status / 100) === statusClass) &&
    (since === undefined || record.at >= since) &&
    (until === undefined || record.at <= until) &&
    (path === undefined || path(record.path));
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

/** What the journal shows of the Authorization header: never the credential itself. */
function redactedAuthorization(
  value: string,
  principal: Principal | null,
  adminToken: string | null,
): string {
  if (principal) return principal.kind === 'mcp' ? 'mcp' : principal.clientid;
  if (adminToken !== null && value === `Bearer ${adminToken}`) return 'admin';
  return 'redacted';
}

/**
 * Request headers that carry credentials besides Authorization: a browser's cookies (the console's
 * session cookie rides along on every request to the sandbox's origin) and a proxy's credentials.
 */
const SECRET_HEADERS = ['cookie', 'proxy-authorization'];

function toEntry(record: JournalRecord, adminToken: string | null): RequestEntry {
  const headers = headerRecord(record.headers);
  if (headers.authorization !== undefined) {
    headers.authorization = redactedAuthorization(headers.authorization, record.principal, adminToken);
  }
  for (const name of SECRET_HEADERS) if (headers[name] !== undefined) headers[name] = 'redacted';
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

// ---------------------------------------------------------------------------------------------------
// Capture.

/** Paths that are not the API: the control endpoints, the docs, the OpenAPI document and the console. */
export function isRecordedPath(path: string): boolean {
  return !(
    path.startsWith('/__sandbox') ||
    path === '/openapi.json' ||
    path === '/docs' ||
    path.startsWith('/docs/') ||
    path === '/console' ||
    path.startsWith('/console/') ||
    path === '/favicon.ico'
  );
}

/** A body cut to MAX_CAPTURED_BODY, copied so that the long text it was cut from can be freed. */
function bounded(text: string): { text: string; truncated: boolean } {
  if (text.length <= MAX_CAPTURED_BODY) return { text, truncated: false };
  return { text: Buffer.from(text.slice(0, MAX_CAPTURED_BODY), 'utf8').toString('utf8'), truncated: true };
}

const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);

interface CapturedBody {
  text: string | null;
  truncated: boolean;
}

const NO_BODY: CapturedBody = { text: null, truncated: false };
const NOT_CAPTURED: CapturedBody = { text: null, truncated: true };

/** At most `limit` bytes of a stream nobody read, as text; the rest is left unread (not cancelled). */
async function readPrefix(body: ReadableStream<Uint8Array>, limit: number): Promise<CapturedBody> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
      if (size > limit) {
        truncated = true;
        break;
      }
    }
  } finally {
    reader.releaseLock();
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return truncated ? { text: bounded(text).text, truncated } : bounded(text);
}

/**
 * The request's body, read after the answer. A JSON body a route validated is cached parsed by hono:
 * it is written back to text (the journal keeps no object a handler may still hold). A body the body
 * guard read is in memory, rebuilt in `c.req.raw`. A body nobody read (a fault answered first) is
 * read up to the capture limit, the rest left to the server to drain; a dropped request's body is
 * read only in process. A body refused on its way in (413) is not captured.
 */
async function requestBody(c: Context<AppEnv>, original: Request, answered: boolean): Promise<CapturedBody> {
  if (BODYLESS.has(c.req.method)) return NO_BODY;
  try {
    const cache = c.req.bodyCache;
    if (cache.json) return bounded(JSON.stringify(await cache.json));
    if (cache.text) return bounded(await cache.text);
    if (cache.formData || cache.arrayBuffer || cache.blob) return NOT_CAPTURED;
    // A body refused for its size was not read: reading it now would only wait for the upload.
    if (answered && c.res.status === 413) return NOT_CAPTURED;
    const raw = c.req.raw;
    if (raw !== original) return raw.bodyUsed ? NOT_CAPTURED : bounded(await raw.text());
    if (!answered && (c.env as { incoming?: unknown } | undefined)?.incoming) return NO_BODY;
    if (!raw.body) return NO_BODY;
    if (raw.bodyUsed) return NOT_CAPTURED;
    return await readPrefix(raw.body, MAX_CAPTURED_BODY);
  } catch {
    return NOT_CAPTURED;
  }
}

/** The caller behind a token nobody checked (a fault answered first), when it is a valid one. */
async function principalOf(services: Services, authorization: string): Promise<Principal | null> {
  try {
    return await services.tokens.authenticate(authorization);
  } catch {
    return null;
  }
}

/** The connection a request concerns: in its path, the vertical's active one, or its header. */
function connectionOfRequest(services: Services, c: Context<AppEnv>, path: string, consumerId: string) {
  const start = 11 + consumerId.length + 1;
  const end = path.indexOf('/', start);
  const area = end === -1 ? path.slice(start) : path.slice(start, end);
  if (area === 'connections' && end !== -1) {
    const close = path.indexOf('/', end + 1);
    const id = close === -1 ? path.slice(end + 1) : path.slice(end + 1, close);
    if (id) return id.toLowerCase();
  }
  const api = Object.hasOwn(ONE_API_OF_AREA, area) ? ONE_API_OF_AREA[area] : undefined;
  if (api) {
    const catalogue = services.catalogue;
    const active = activeConnectionOf(
      services.store.world,
      consumerId,
      api,
      (id) => catalogue.get(id)?.api,
      connectionPreference(c),
    );
    if (active) return active.connectionid;
  }
  return null;
}

/**
 * The text of an answer @hono/node-server made from a string (JSON and text answers): its Response
 * keeps the status, body and headers it was made with under a symbol of its own, described "cache",
 * which it writes to the socket without a stream. Anything else (a stream, bytes, another Response
 * class) gives null: the journal then keeps no response body, never a wrong one.
 */
function answerText(response: Response): string | null {
  const key = Object.getOwnPropertySymbols(response).find((symbol) => symbol.description === 'cache');
  const cached = key ? (response as unknown as Record<symbol, unknown>)[key] : undefined;
  return Array.isArray(cached) && typeof cached[1] === 'string' ? cached[1] : null;
}

type JsonResponder = (object: unknown, arg?: unknown, headers?: Record<string, string>) => Response;

/**
 * The middleware in front of every route, before the write boundary: the fault injection (see
 * faults.ts), then the recording of the request once it is answered.
 */
function trafficMiddleware(services: Services): MiddlewareHandler<AppEnv> {
  const { requests, faults, clock } = services;
  return async function traffic(c, next) {
    c.set('requests', requests);
    c.set('faults', faults);
    const path = c.req.path;
    if (!isRecordedPath(path) || (!requests.active && !faults.armed)) return next();
    const started = performance.now();
    const at = clock.now().getTime();
    const original = c.req.raw;
    const keeps = requests.keeps;
    let responseText: string | null = null;
    // Served over a socket, the answer's text is read from the answer once made (see answerText).
    // In process (app.request), where answers are the platform's Response, the JSON text is caught
    // as it is made: a property set on the Context per request makes every request of a server
    // slower (some 30 % of an authenticated read, in garbage collection), so not over a socket.
    const served = (c.env as { incoming?: unknown } | undefined)?.incoming !== undefined;
    if (keeps && !served) {
      const context = c as unknown as { json: JsonResponder; body: (...args: unknown[]) => Response };
      context.json = (object, arg, headers) => {
        const text = JSON.stringify(object);
        responseText = text;
        return context.body(text, arg, { 'Content-Type': 'application/json', ...headers });
      };
    }
    const consumerId = consumerOfPath(path);
    const fault = faults.armed ? faults.match(c, path, consumerId) : null;
    let answered = true;
    if (fault) answered = await faults.apply(fault, c, next, services.config.bodyLimit);
    else await next();
    if (!requests.active) return;
    if (keeps && served && answered) responseText = answerText(c.res);
    // Recording must never turn an answer into an error: a failure here is logged and skipped.
    try {
      await recordRequest(services, c, {
        started,
        at,
        original,
        path,
        consumerId,
        answered,
        fault,
        responseText,
      });
    } catch (error) {
      console.error('[unified-api-sandbox] a request could not be recorded:', error);
    }
  };
}

interface Capture {
  started: number;
  at: number;
  original: Request;
  path: string;
  consumerId: string | null;
  answered: boolean;
  fault: { id: string } | null;
  responseText: string | null;
}

async function recordRequest(services: Services, c: Context<AppEnv>, capture: Capture): Promise<void> {
  const { requests } = services;
  const { started, at, original, path, consumerId, answered, fault, responseText } = capture;
  const keeps = requests.keeps;
  const method = c.req.method;
  const record: JournalRecord = {
    seq: 0,
    chars: 0,
    at,
    method,
    path,
    url: '',
    headers: null,
    principal: null,
    consumerId,
    connectionId: null,
    requestBody: null,
    requestTruncated: false,
    status: answered ? c.res.status : 0,
    responseBody: null,
    responseTruncated: false,
    durationMs: Math.round((performance.now() - started) * 100) / 100,
    fault: fault?.id ?? null,
  };
  if (keeps) {
    // References to what exists anyway; the wire shape is built when the journal is read.
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    record.url = original.url;
    record.headers = incoming ? incoming.rawHeaders : original.headers;
    record.principal = c.get('principal') ?? null;
    if (record.principal === null && fault) {
      const authorization = original.headers.get('authorization');
      if (authorization) record.principal = await principalOf(services, authorization);
    }
    if (consumerId !== null) record.connectionId = connectionOfRequest(services, c, path, consumerId);
    // An authentication route's bodies are not even read: record() would drop them anyway.
    const secret = isAuthenticationPath(path);
    if (!secret && !BODYLESS.has(method)) {
      const request = await requestBody(c, original, answered);
      record.requestBody = request.text;
      record.requestTruncated = request.truncated;
    }
    if (!secret && responseText !== null && record.status !== 204 && method !== 'HEAD') {
      const response = bounded(responseText);
      record.responseBody = response.text;
      record.responseTruncated = response.truncated;
    }
  }
  requests.record(record);
}

/**
 * Puts the journal and the faults in front of every route (call it before any other middleware), and
 * makes `app.request` reject, as fetch does, when a fault leaves a request without an answer.
 */
export function installTraffic(app: OpenAPIHono<AppEnv>, services: Services): void {
  app.use('*', trafficMiddleware(services));
  const request = app.request;
  app.request = ((...args: Parameters<typeof request>) =>
    Promise.resolve(request(...args)).then((res) => {
      const failure = services.faults.unanswered(res);
      if (failure) throw failure;
      return res;
    })) as typeof request;
}

// ---------------------------------------------------------------------------------------------------
// Control endpoints.

const Headers_ = z.record(z.string(), z.string());

const RequestEntrySchema = z
  .object({
    id: z.string().openapi({ description: 'Id of the entry (req_<n>, counting from 1 per sandbox)' }),
    time: z.iso.datetime().openapi({ description: 'Sandbox time at which the request arrived' }),
    method: z.string(),
    path: z.string(),
    query: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
    consumer_id: z
      .string()
      .nullable()
      .openapi({ description: 'The consumer of a /consumers/{consumer_id} path' }),
    connection_id: z.string().nullable().openapi({
      description:
        "The connection of the path, else the consumer's active connection of the path's vertical, else the X-Chift-ConnectionId header",
    }),
    client_request_id: z.string().nullable().openapi({ description: 'The x-chift-client-requestid header' }),
    request: z.object({
      headers: Headers_.openapi({
        description:
          'The request headers; Authorization shows the clientId of an API token, or mcp, admin or redacted; Cookie and Proxy-Authorization show redacted',
      }),
      body: z.unknown().openapi({ description: 'Parsed JSON when whole, else text; null when none' }),
      truncated: z
        .boolean()
        .openapi({ description: 'Whether the body was cut (64 Ki characters) or dropped' }),
    }),
    status: z.number().int().openapi({ description: 'The status answered; 0 when no answer was sent' }),
    response: z.object({
      body: z.unknown().openapi({ description: 'The JSON answer, parsed when whole, else its text' }),
      truncated: z.boolean(),
    }),
    redacted: z.boolean().openapi({
      description:
        'Whether both bodies were left out (null): always for the authentication routes (/token, /mcp-token, /oauth/...), whose bodies carry credentials',
    }),
    duration_ms: z.number().openapi({ description: 'Wall time spent answering, in milliseconds' }),
    fault: z.string().nullable().openapi({ description: 'The id of the fault that fired, if any' }),
  })
  .openapi('SandboxRequest');

const RequestsQuery = pageQuery({
  method: z.string().max(16).optional().openapi({ description: 'Only this method' }),
  path: z
    .string()
    .max(500)
    .superRefine(checkPathPattern)
    .optional()
    .openapi({
      description: `A path pattern: {name} matches one segment, * one or more; * alone: all; at most ${MAX_PATTERN_SEGMENTS} segments`,
    }),
  consumer_id: z.string().max(100).optional().openapi({ description: 'Only requests under this consumer' }),
  status: z
    .string()
    .regex(/^(\d{1,3}|[1-5]xx)$/i, 'A status (201) or a class (4xx)')
    .optional()
    .openapi({ description: 'An exact status (201) or a class (2xx, 4xx, 5xx)' }),
  since: z.iso.datetime({ offset: true }).optional().openapi({ description: 'Sandbox time, inclusive' }),
  until: z.iso.datetime({ offset: true }).optional().openapi({ description: 'Sandbox time, inclusive' }),
});

const RequestIdParam = z.object({
  id: z
    .string()
    .max(40)
    .openapi({ param: { name: 'id', in: 'path' }, description: 'Id of the journal entry' }),
});

export const listRequests = createRoute({
  method: 'get',
  path: '/__sandbox/requests',
  operationId: 'sandbox_list_requests',
  tags,
  summary:
    'List the recorded requests, newest first (control endpoints, /docs and /openapi.json are not recorded)',
  ...admin,
  request: { query: RequestsQuery },
  responses: {
    200: jsonContent(servicePage(RequestEntrySchema, 'SandboxRequest'), 'One page of recorded requests'),
    ...errorResponses([401, 422]),
  },
});

export const getRequest = createRoute({
  method: 'get',
  path: '/__sandbox/requests/{id}',
  operationId: 'sandbox_get_request',
  tags,
  summary: 'Get one recorded request',
  ...admin,
  request: { params: RequestIdParam },
  responses: {
    200: jsonContent(RequestEntrySchema, 'The recorded request'),
    ...errorResponses([401, 404, 422]),
  },
});

export const clearRequests = createRoute({
  method: 'delete',
  path: '/__sandbox/requests',
  operationId: 'sandbox_clear_requests',
  tags,
  summary: 'Forget every recorded request',
  ...admin,
  responses: { 204: emptyResponse('The journal is empty'), ...errorResponses([401]) },
});

export function registerRequestControl(app: OpenAPIHono<AppEnv>): void {
  app.openapi(listRequests, async (c) => {
    const { page, size, ...filter } = c.req.valid('query');
    return c.json(await c.get('requests').pageInSlices(filter, page, size), 200);
  });

  app.openapi(getRequest, (c) => {
    const entry = c.get('requests').get(c.req.valid('param').id);
    if (!entry) throw errors.requestNotFound();
    return c.json(entry, 200);
  });

  app.openapi(clearRequests, (c) => {
    c.get('requests').clear();
    return c.body(null, 204);
  });
}
