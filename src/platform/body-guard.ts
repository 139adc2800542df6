import type { MiddlewareHandler } from 'hono';
import { errors, jsonTooDeep } from '../lib/errors.js';
import type { AppEnv } from './context.js';

// Linear: the optional group ends on `+`, which its class does not hold, so it backtracks at most
// once per character (the same expression hono's validator uses to decide to parse JSON).
const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;
export const isJsonRequest = (contentType: string | undefined): boolean =>
  JSON_TYPE.test((contentType ?? '').split(';')[0]?.trim() ?? '');

const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

/**
 * Deepest nesting of arrays and objects a JSON body may have. Every walk of a parsed body (zod's
 * validation, JSON.stringify when the world is saved) recurses once per level, so an unbounded
 * depth overflows the stack; no payload of the service comes near this depth.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Whether the arrays and objects of a JSON text nest deeper than `max`: one pass over the bytes,
 * without recursion and without parsing. Brackets inside strings do not count, nor an escaped quote.
 * Working on UTF-8 bytes is exact: every byte of a multi-byte character is above 0x7f. The depth
 * never goes below zero, so stray closing brackets cannot hide the nesting that follows them.
 */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
      depth += 1;
      if (depth > max) return true;
    } else if ((byte === CLOSE_BRACKET || byte === CLOSE_BRACE) && depth > 0) {
      depth -= 1;
    }
  }
  return false;
}

/**
 * The body's bytes, or null as soon as they pass `limit`: a chunked upload announces no length, so
 * the bytes are counted as they arrive and the reading stops at the limit instead of holding the
 * whole upload. The stream is not cancelled: under Node that would destroy the socket before the 413
 * is written; the answer's `Connection: close` ends the connection instead.
 */
async function readWithin(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) return null;
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Runs before any route: refuses a body over the size limit (413, whether announced by
 * Content-Length or streamed), a non-empty body that is not JSON (415), except where a route
 * takes a form (the end user's connection page), and a JSON body nested deeper than
 * MAX_JSON_DEPTH (422).
 */
export function bodyGuard(formPaths: RegExp): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    const limit = c.get('config').bodyLimit;
    const tooLarge = () => {
      // The rest of the upload is not wanted: closing the connection spares reading it, and a
      // keep-alive connection would otherwise take the unread bytes for the next request.
      c.header('Connection', 'close');
      return errors.payloadTooLarge(limit);
    };
    const declared = c.req.header('content-length');
    if (declared !== undefined && Number(declared) > limit) throw tooLarge();
    const raw = c.req.raw;
    if (!raw.body) return next();
    const bytes = await readWithin(raw.body, limit);
    if (bytes === null) throw tooLarge();
    // The stream is spent: the routes read the request rebuilt from the very bytes checked here.
    c.req.raw = new Request(raw.url, { method, headers: raw.headers, body: bytes, signal: raw.signal });
    if (bytes.byteLength === 0) return next();
    const mediaType = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const isJson = JSON_TYPE.test(mediaType);
    const formAllowed = formPaths.test(c.req.path) && FORM_TYPES.has(mediaType);
    if (!isJson && !formAllowed) throw errors.unsupportedMediaType();
    if (isJson && nestsDeeperThan(bytes, MAX_JSON_DEPTH)) throw jsonTooDeep(MAX_JSON_DEPTH);
    return next();
  };
}
