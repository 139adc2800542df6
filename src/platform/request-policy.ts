import type { MiddlewareHandler } from 'hono';
import { type CorsPolicy, corsAllows, corsStep, originKey } from '../lib/cors.js';
import { type ApiError, errors } from '../lib/errors.js';
import { canonicalHost, hostOfHeader, LOOPBACK } from '../lib/hosts.js';
import { sameSecret } from './access.js';
import type { AppEnv } from './context.js';
import type { SandboxSelf } from './self.js';

/**
 * The request policy of the whole process, applied to every request before routing: the one place
 * that says which requests reach the sandbox at all, and from which origin a browser may use each
 * surface. Every surface a new route joins is named here by its path, so a new page or endpoint
 * inherits the rules of its surface instead of bringing its own.
 *
 * 1. The sandbox never calls itself: a request carrying the server's delivery marker (every webhook
 *    delivery of every world sends it) is refused, whatever its path, world or spelling of its host.
 * 2. The Host must name this server (DNS rebinding): loopback names, the listening address, the
 *    public url's host and the names given with --allowed-hosts.
 * 3. CORS answers only on the service's API (and the OAuth endpoints a browser-based MCP client
 *    calls); the control endpoints, the console, /docs, /guides, the sign-in pages and the link pages
 *    answer no CORS header, so no other site's page can read them.
 * 4. On those surfaces a request that a browser marks as coming from another site (Origin or
 *    Sec-Fetch-Site) never changes state, simple requests included. /mcp checks Origin as the MCP
 *    transport requires.
 * 5. No page can be framed: every HTML answer, whatever route or error made it, forbids every
 *    ancestor (no page of the sandbox frames another), so no other site can overlay the console's
 *    buttons, the OAuth consent or a link page's form (clickjacking).
 */

/** The surfaces of the sandbox, by what they are for and who uses them. */
export type Surface =
  /** The service's API: any origin the CORS setting lets in. */
  | 'api'
  /** OAuth metadata, registration and token endpoints: called by browser-based MCP clients too. */
  | 'oauth-api'
  /** The MCP server. */
  | 'mcp'
  /** Control endpoints (/__sandbox). */
  | 'control'
  /** Pages for a person: the console, /docs, /guides and the home page, the OAuth sign-in, the link pages. */
  | 'pages';

const OAUTH_API = new Set(['/oauth/token', '/oauth/register']);

/** The surface of a path, as the router sees it (hono routes the decoded path, case-sensitively). */
export function surfaceOf(path: string): Surface {
  const second = path.indexOf('/', 1);
  const first = second === -1 ? path : path.slice(0, second);
  switch (first) {
    case '/__sandbox':
      return 'control';
    case '/mcp':
      return 'mcp';
    case '/.well-known':
      return 'oauth-api';
    case '/oauth':
      return OAUTH_API.has(path) ? 'oauth-api' : 'pages';
    case '/':
    case '/console':
    case '/docs':
    case '/guides':
    case '/link':
      return 'pages';
    default:
      return 'api';
  }
}

/** Whether a surface answers CORS (a page of another origin may read its answers). */
const SHARED_WITH_OTHER_ORIGINS: ReadonlySet<Surface> = new Set(['api', 'oauth-api', 'mcp']);

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * What every HTML answer says of framing: CSP's frame-ancestors for today's browsers, and
 * X-Frame-Options to match for those before it. No page of the sandbox frames itself: 'none'.
 */
export const NO_FRAMING: Readonly<Record<string, string>> = {
  'content-security-policy': "frame-ancestors 'none'",
  'x-frame-options': 'DENY',
};

/** Sets NO_FRAMING on an answer that a browser shows as a page (HTML), and on no other. */
function forbidFraming(res: Response): void {
  const type = res.headers.get('content-type');
  if (type === null || !type.toLowerCase().startsWith('text/html')) return;
  for (const [name, value] of Object.entries(NO_FRAMING)) res.headers.set(name, value);
}

/** The header every webhook delivery carries, with the server's marker (SandboxSelf.marker) as its value. */
export const SELF_CALL_HEADER = 'x-sandbox-delivery';

export interface RequestPolicyOptions {
  /** Names the Host may give besides loopback's; '*' lets any Host in (see allowedHostsOf). */
  allowedHosts: readonly string[] | '*';
  /** The public url, whose origin counts as the sandbox's own. */
  publicUrl: string | null;
  cors: CorsPolicy;
  /**
   * The sandbox itself: its delivery marker (SELF_CALL_HEADER), shared by every world of the server,
   * and the origins it listens on (its own pages' origins).
   */
  self: Pick<SandboxSelf, 'marker' | 'origins'>;
}

/**
 * Whether a Host header names this server: a name of loopback, or one of `allowed` (an exact
 * name or address, or `.example.com` for the domain and its subdomains).
 */
export function hostAllowed(header: string | undefined, allowed: readonly string[] | '*'): boolean {
  if (allowed === '*' || header === undefined) return true;
  const host = hostOfHeader(header);
  if (host === null) return false;
  const canonical = canonicalHost(host);
  if (canonical === LOOPBACK) return true;
  for (const name of allowed) {
    if (name.startsWith('.')) {
      if (canonical === name.slice(1) || canonical.endsWith(name)) return true;
    } else if (canonical === name) {
      return true;
    }
  }
  return false;
}

/**
 * The allowed names of a setting: each lowercased, without port or brackets, in canonical form; a
 * `*` anywhere lets every Host in.
 */
export function allowedHostsOf(names: readonly string[] | '*'): readonly string[] | '*' {
  if (names === '*' || names.includes('*')) return '*';
  const out = new Set<string>();
  for (const name of names) {
    const trimmed = name.trim().toLowerCase();
    if (trimmed === '') continue;
    if (trimmed.startsWith('.')) out.add(trimmed);
    else {
      const host = hostOfHeader(trimmed);
      if (host) out.add(canonicalHost(host));
    }
  }
  return [...out];
}

/** The host of a url, for the allowed list (null when it is not a url). */
export function hostOfUrl(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

/**
 * The origins that are the sandbox's own for a request, each in one spelling (originKey): the one
 * its Host names, the public url's, and those the server listens on.
 */
function ownOrigins(
  requestUrl: string,
  publicUrl: string | null,
  self: Pick<SandboxSelf, 'origins'>,
): string[] {
  const origins: string[] = [];
  for (const origin of [new URL(requestUrl).origin, publicUrl, ...self.origins]) {
    const key = origin ? originKey(origin) : null;
    if (key !== null) origins.push(key);
  }
  return origins;
}

/**
 * Whether a browser says the request comes from a page of another site: an Origin that is not one
 * of the sandbox's own (`null` and a malformed one included), or Sec-Fetch-Site other than
 * same-origin or none (a person typing the url). Clients that are not browsers send neither and are
 * not concerned.
 */
function fromAnotherSite(headers: Headers, own: () => string[]): boolean {
  const origin = headers.get('origin');
  if (origin !== null) {
    const key = originKey(origin);
    if (key === null || !own().includes(key)) return true;
  }
  const site = headers.get('sec-fetch-site');
  return site !== null && site !== 'same-origin' && site !== 'none';
}

/**
 * Whether an Origin may use the MCP server (which refuses any other, as its transport requires): its
 * own, or one the CORS setting lets in, whatever its spelling (case, default port, a trailing dot,
 * an IPv6 address written in full); never an opaque (`null`) or malformed one.
 */
function mcpOriginAllowed(origin: string, cors: CorsPolicy, own: () => string[]): boolean {
  const key = originKey(origin);
  return key !== null && (own().includes(key) || corsAllows(cors, origin));
}

/** The policy as one middleware, to be installed before any other step of the app. */
export function requestPolicy(options: RequestPolicyOptions): MiddlewareHandler<AppEnv> {
  const allowed = allowedHostsOf(options.allowedHosts);
  const cors = corsStep(options.cors);
  const refuse = (error: ApiError) => {
    throw error;
  };
  return async (c, next) => {
    const headers = c.req.raw.headers;
    const marker = headers.get(SELF_CALL_HEADER);
    if (marker !== null && sameSecret(marker, options.self.marker)) refuse(errors.selfCallRefused());
    const host = headers.get('host') ?? undefined;
    if (!hostAllowed(host, allowed)) refuse(errors.hostNotAllowed(host ?? ''));
    const surface = surfaceOf(c.req.path);
    const own = () => ownOrigins(c.req.url, options.publicUrl, options.self);
    if (surface === 'mcp') {
      const origin = headers.get('origin');
      if (origin !== null && !mcpOriginAllowed(origin, options.cors, own)) refuse(errors.originNotAllowed());
    } else if (
      !SHARED_WITH_OTHER_ORIGINS.has(surface) &&
      !SAFE_METHODS.has(c.req.method) &&
      fromAnotherSite(headers, own)
    ) {
      refuse(errors.crossSiteRefused());
    }
    // CORS answers a preflight itself (a Response returned, no page): any other answer is c.res.
    const answer = await (cors && SHARED_WITH_OTHER_ORIGINS.has(surface) ? cors(c, next) : next());
    if (answer instanceof Response) return answer;
    forbidFraming(c.res);
  };
}
