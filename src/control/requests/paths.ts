/**
 * The paths the journal reads: which carry credentials (their bodies are never kept) and which
 * consumer a path concerns. The journal's filter and the faults' match share the path patterns
 * (lib/path-pattern.ts).
 */

export { compilePathPattern, isPathPattern, type PathMatcher } from '../../lib/path-pattern.js';

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
