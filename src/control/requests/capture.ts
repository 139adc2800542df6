import type { IncomingMessage } from 'node:http';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { NotingResponse } from '../../lib/noting-response.js';
import type { AppEnv, Services } from '../../platform/context.js';
import { type Principal, unverifiedClaims } from '../../platform/tokens.js';
import { activeConnectionOf, connectionPreference, oneApiOfArea } from '../../platform/transactions.js';
import { consumerOfPath, isAuthenticationPath } from './paths.js';
import { type JournalRecord, listPageOf, MAX_CAPTURED_BODY } from './records.js';

/**
 * Capture: the middleware that records each request the API answers in the app's journal, and lets
 * an armed fault answer it instead (see control/faults.ts).
 */

// ---------------------------------------------------------------------------------------------------
// Capture.

/** Paths that are not the API: the control endpoints, the docs, the guides, the OpenAPI document and the console. */
export function isRecordedPath(path: string): boolean {
  return !(
    path.startsWith('/__sandbox') ||
    path === '/openapi.json' ||
    path === '/docs' ||
    path.startsWith('/docs/') ||
    path === '/guides' ||
    path.startsWith('/guides/') ||
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
  const api = oneApiOfArea(services.verticals, area);
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
 * A control endpoint called with an API token the sandbox issued: noted for the readiness report. The
 * token is only read (its subject), not checked: the control endpoints take the admin token or none.
 */
function noteControlCall(services: Services, c: Context<AppEnv>, path: string): void {
  const authorization = c.req.header('authorization');
  const token = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  const claims = token ? unverifiedClaims(token) : null;
  if (!claims || (claims.typ !== 'api' && claims.typ !== 'mcp')) return;
  services.requests.noteControlCall({
    at: services.clock.now().getTime(),
    method: c.req.method,
    path,
    client: claims.sub,
  });
}

/** The text of a JSON answer, read from a copy of it (the answer itself is left to its caller). */
async function jsonText(response: Response): Promise<string | null> {
  if (!/^application\/(.+\+)?json/i.test(response.headers.get('content-type') ?? '') || !response.body)
    return null;
  return response.clone().text();
}

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
    if (!isRecordedPath(path)) {
      if (requests.keeps && path.startsWith('/__sandbox')) noteControlCall(services, c, path);
      return next();
    }
    if (!requests.active && !faults.armed) return next();
    const started = performance.now();
    const at = clock.now().getTime();
    const original = c.req.raw;
    const keeps = requests.keeps;
    const consumerId = consumerOfPath(path);
    const fault = faults.armed ? faults.match(c, path, consumerId) : null;
    let answered = true;
    if (fault) answered = await faults.apply(fault, c, next, services.config.bodyLimit);
    else await next();
    if (!requests.active) return;
    // Recording must never turn an answer into an error: a failure here is logged and skipped.
    try {
      const capture = { started, at, original, path, consumerId, answered, fault };
      const prepared = prepareRecord(services, c, capture);
      const { record, secret } = prepared instanceof Promise ? await prepared : prepared;
      if (!keeps || !answered) return finishRecord(services, record, null, secret);
      // Served by the sandbox's own server, the answer's text is noted as the server writes it (the
      // record is kept then, before the client has it); else (app.request, another server) a JSON
      // answer's text is read from a copy of it.
      const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
      if (outgoing instanceof NotingResponse) {
        outgoing.onEnd = (text) => finishRecord(services, record, text, secret);
        return;
      }
      finishRecord(services, record, await jsonText(c.res), secret);
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
}

interface Prepared {
  record: JournalRecord;
  /** An authentication route: its bodies are not even read (record() would drop them anyway). */
  secret: boolean;
}

/**
 * The record of a request once answered, but for the answer's body. Only what must wait is waited
 * for (a body nobody read, the caller of a token nobody checked); a read without a fault is prepared
 * at once, without a promise.
 */
function prepareRecord(
  services: Services,
  c: Context<AppEnv>,
  capture: Capture,
): Prepared | Promise<Prepared> {
  const { started, at, original, path, consumerId, answered, fault } = capture;
  const method = c.req.method;
  const secret = isAuthenticationPath(path);
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
  if (!services.requests.keeps) return { record, secret };
  // What exists anyway; the journal packs it, and the wire shape is built when the journal is read.
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  record.url = original.url;
  record.headers = incoming ? incoming.rawHeaders : original.headers;
  record.principal = c.get('principal') ?? null;
  const authorization = record.principal === null && fault ? original.headers.get('authorization') : null;
  const readsBody = !secret && !BODYLESS.has(method);
  if (!authorization && !readsBody) {
    if (consumerId !== null) record.connectionId = connectionOfRequest(services, c, path, consumerId);
    return { record, secret };
  }
  return (async () => {
    if (authorization) record.principal = await principalOf(services, authorization);
    if (consumerId !== null) record.connectionId = connectionOfRequest(services, c, path, consumerId);
    if (readsBody) {
      const request = await requestBody(c, original, answered);
      record.requestBody = request.text;
      record.requestTruncated = request.truncated;
    }
    return { record, secret };
  })();
}

/** The record's answer: its page and body; then into the journal. */
function finishRecord(
  services: Services,
  record: JournalRecord,
  responseText: string | null,
  secret: boolean,
): void {
  const { method } = record;
  if (method === 'GET' && record.status === 200) record.page = listPageOf(responseText);
  if (!secret && responseText !== null && record.status !== 204 && method !== 'HEAD') {
    const response = bounded(responseText);
    record.responseBody = response.text;
    record.responseTruncated = response.truncated;
  }
  services.requests.record(record);
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
