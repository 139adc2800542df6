import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ApiError, errors, invalidJson, messages, ValidationFailure } from '../lib/errors.js';
import { pythonJsonError } from '../lib/python-json.js';
import { JSON_DECODE_ERRORS } from '../lib/validation-errors.js';
import { RecordTooLargeError, UnstorableChangeError, WorldFullError } from '../store/store.js';

/**
 * The one error mapper: ApiError to the ServiceError envelope, validation failures to the 422
 * validation body, the framework's own refusals (malformed JSON) to the same shapes. Anything else
 * is a bug of the sandbox: it is logged without the request and answered as a 500 ServiceError.
 */
export function handleError(error: Error, c: Context): Response | Promise<Response> {
  if (error instanceof ApiError) return c.json(error.toBody(), error.status);
  if (error instanceof ValidationFailure) return c.json(error.toBody(), 422);
  const refused = storeRefusal(error);
  if (refused) return c.json(refused.toBody(), refused.status);
  if (error instanceof HTTPException) {
    if (error.status === 400 && /json/i.test(error.message)) return malformedJson(c);
    if (error.status === 413) return c.json(new ApiError(413, error.message).toBody(), 413);
    const status = error.status >= 400 && error.status < 500 ? error.status : 400;
    return c.json({ message: error.message || 'Bad request', status: 'error', detail: '' }, status);
  }
  console.error(`[unified-api-sandbox] unexpected error on ${c.req.method} ${c.req.path}:`, error);
  return c.json({ message: messages.internal, status: 'error', detail: '' }, 500);
}

/** A body the framework could not read as JSON: the entry FastAPI answers, Python's reader's reason. */
async function malformedJson(c: Context): Promise<Response> {
  // The body guard kept the text; a body it did not keep is read as none.
  const text = await c.req.text().catch(() => '');
  const { pos, msg } = pythonJsonError(text) ?? { pos: 0, msg: JSON_DECODE_ERRORS.value };
  return c.json(invalidJson(pos, msg).toBody(), 422);
}

/**
 * The API's refusal of a write the store would not keep (the world full, a record too large, a change
 * it cannot store), or undefined for any other error: what a request, or the background work that
 * makes the write, reports.
 */
export function storeRefusal(error: unknown): ApiError | undefined {
  if (error instanceof WorldFullError) return errors.worldFull(error.used, error.limit);
  if (error instanceof RecordTooLargeError) {
    // The field as the client named it (its place in the world means nothing to a client).
    const path = error.path.length > 2 ? (error.path.at(-1) as string) : 'The record';
    return errors.recordTooLarge(path, error.size, error.limit);
  }
  if (error instanceof UnstorableChangeError) return errors.changeNotStorable(error.message);
  return undefined;
}
