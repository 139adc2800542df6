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
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // The rest stays unread (see above). A stream read to its end keeps its lock: releasing it
      // makes Node build an error for the reader's promise, ~2 ms the first time in a process.
      reader.releaseLock();
      return null;
    }
    chunks.push(value);
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

const utf8 = new TextDecoder();

/** Where the body guard leaves the request's body. */
export interface BodyPaths {
  /** Routes that take a form (the end user's connection page, the console). */
  forms: RegExp;
  /**
   * Routes that read the raw request's body themselves (its text never in hono's body cache, which
   * the request journal keeps): the guard hands them a request rebuilt from the bytes it read.
   */
  raw: RegExp;
}

/**
 * Runs before any route: refuses a body over the size limit (413, whether announced by
 * Content-Length or streamed), a non-empty body that is not JSON (415), except where a route
 * takes a form, and a JSON body nested deeper than MAX_JSON_DEPTH (422).
 *
 * A JSON body it accepts is handed to the routes through hono's body cache (its text, and its value
 * once parsed): rebuilding a platform Request around the bytes read cost about a tenth of a write's
 * time. A body of announced length is read at once (no stream is made for it); a streamed one is
 * counted as it arrives. A form, or a body a `raw` route reads itself, is rebuilt in `c.req.raw`.
 */
export function bodyGuard(paths: BodyPaths): MiddlewareHandler<AppEnv> {
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
    let bytes: Uint8Array | null;
    if (declared !== undefined && /^\d+$/.test(declared)) {
      // The server holds the connection to the announced length: read at once, within the limit.
      if (declared === '0') return next();
      bytes = new Uint8Array(await raw.arrayBuffer());
      if (bytes.byteLength > limit) throw tooLarge();
    } else {
      if (!raw.body) return next();
      bytes = await readWithin(raw.body, limit);
      if (bytes === null) throw tooLarge();
    }
    const mediaType = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const isJson = JSON_TYPE.test(mediaType);
    const path = c.req.path;
    if (!isJson || bytes.byteLength === 0 || paths.raw.test(path)) {
      // The body is spent: these routes read the request rebuilt from the very bytes checked here.
      c.req.raw = new Request(raw.url, { method, headers: raw.headers, body: bytes, signal: raw.signal });
    }
    if (bytes.byteLength === 0) return next();
    const formAllowed = paths.forms.test(path) && FORM_TYPES.has(mediaType);
    if (!isJson && !formAllowed) throw errors.unsupportedMediaType();
    if (isJson && nestsDeeperThan(bytes, MAX_JSON_DEPTH)) throw jsonTooDeep(MAX_JSON_DEPTH);
    if (isJson && c.req.raw === raw) {
      const text = utf8.decode(bytes);
      // What hono keeps there are the promises of its readers (its type says the values).
      const cache = c.req.bodyCache as unknown as Record<'text' | 'json', Promise<unknown>>;
      cache.text = Promise.resolve(text);
      try {
        cache.json = Promise.resolve(JSON.parse(text));
      } catch {
        // Malformed: the route's validator answers it, from the text, as it would from the request.
      }
    }
    return next();
  };
}
