import { TOKEN_LIFETIME_SECONDS, unverifiedClaims } from '../../platform/tokens.js';
import { type JournalRecord, recordHeader } from '../requests/records.js';
import type { Operation } from './operations.js';

/** What the readings of the readiness report share: the calls of the journal as they read them. */

export const WRITES = new Set(['POST', 'PUT', 'PATCH']);
/** Query parameters that read only what changed. */
export const INCREMENTAL = ['updated_after', 'date_from', 'date_to', 'starting_from'];
export const PAGING = new Set(['page', 'size']);

export interface TokenClaims {
  sub: string;
  iat: number;
  exp: number;
}

/** What the report reads of one recorded request. */
export interface Call {
  record: JournalRecord;
  id: string;
  at: number;
  method: string;
  path: string;
  /** The query without page and size, sorted: the list it reads. */
  listKey: string;
  query: URLSearchParams;
  operation: Operation | null;
  token: string | null;
  claims: TokenClaims | null;
  client: string | null;
}

/** The claims of a JWT, read without checking it (the API checked it; the report only reads). */
export function claimsOf(token: string): TokenClaims | null {
  const claims = unverifiedClaims(token);
  if (!claims || claims.exp === undefined) return null;
  return { sub: claims.sub, iat: claims.iat ?? claims.exp - TOKEN_LIFETIME_SECONDS, exp: claims.exp };
}

export function bearerOf(record: JournalRecord): string | null {
  const value = recordHeader(record, 'authorization');
  const match = value ? /^Bearer\s+(\S+)\s*$/i.exec(value) : null;
  return match?.[1] ?? null;
}

export function queryOf(url: string): URLSearchParams {
  const at = url.indexOf('?');
  return new URLSearchParams(at === -1 ? '' : url.slice(at + 1));
}

export function listKeyOf(path: string, query: URLSearchParams): string {
  const kept = [...query]
    .filter(([name]) => !PAGING.has(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${path}?${new URLSearchParams(kept).toString()}`;
}

/** The error an answer carried: its class (status and error_code), message and detail. */
export function errorOf(record: JournalRecord): { key: string; message: string; detail: string } {
  const text = record.responseBody;
  let code = '';
  let message = '';
  let detail = '';
  if (text !== null && text.length < 64 * 1024) {
    try {
      const body = JSON.parse(text) as { error_code?: unknown; message?: unknown; detail?: unknown };
      if (typeof body.error_code === 'string') code = body.error_code;
      if (typeof body.detail === 'string') detail = body.detail;
      if (typeof body.message === 'string') message = body.message;
      if (Array.isArray(body.detail)) {
        const fields = (body.detail as { loc?: unknown[] }[])
          .map((issue) => (Array.isArray(issue.loc) ? issue.loc.join('.') : ''))
          .filter(Boolean);
        detail = `invalid: ${[...new Set(fields)].join(', ')}`;
      }
    } catch {
      // Not JSON: the class is the status alone.
    }
  }
  return { key: code ? `${record.status} ${code}` : String(record.status), message, detail };
}

export const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

export function signature(call: Call): string {
  return `${call.method} ${call.path}?${call.query.toString()}\n${call.record.requestBody ?? ''}`;
}
