import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';
import { errors } from './errors.js';

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;
export const isJsonRequest = (contentType: string | undefined): boolean =>
  JSON_TYPE.test((contentType ?? '').split(';')[0]?.trim() ?? '');

const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

/**
 * Runs before any route: refuses a body over the size limit (413, whether announced by
 * Content-Length or streamed) and a non-empty body that is not JSON (415), except where a route
 * takes a form (the end user's connection page).
 */
export function bodyGuard(formPaths: RegExp): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return next();
    const limit = c.var.config.bodyLimit;
    const declared = c.req.header('content-length');
    if (declared !== undefined && Number(declared) > limit) throw errors.payloadTooLarge(limit);
    if (!c.req.raw.body) return next();
    // Read once: the request caches the bytes, and the validators parse them from that cache.
    const bytes = await c.req.arrayBuffer();
    if (bytes.byteLength > limit) throw errors.payloadTooLarge(limit);
    if (bytes.byteLength === 0) return next();
    const mediaType = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const formAllowed = formPaths.test(c.req.path) && FORM_TYPES.has(mediaType);
    if (!JSON_TYPE.test(mediaType) && !formAllowed) throw errors.unsupportedMediaType();
    return next();
  };
}
