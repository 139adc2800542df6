import { networkInterfaces } from 'node:os';
import { canonicalHost } from '../../lib/hosts.js';

export { canonicalHost };

/**
 * The sandbox's own control endpoints as a webhook target. A delivery is a POST without any token;
 * on loopback the control endpoints need none, so a webhook url at the sandbox's own
 * `/__sandbox/reset` would wipe every account's world at the first event, and one at
 * `.../redeliver` would send itself again forever. The rest of the sandbox is safe to call: every
 * other operation needs a token a delivery does not carry (or, for /token, credentials its body does
 * not hold).
 *
 * "Own" is an origin the sandbox answers on: the addresses it listens on (startSandbox fills
 * `services.selfOrigins` once it listens), its public url, and the origin a request came through.
 * Every name of loopback (localhost, 127.x.x.x, ::1, 0.0.0.0, ::, their IPv4-mapped forms) counts
 * as the same host, port by port; a name that resolves to such an address is caught when the
 * delivery resolves it (see postWebhook's address guard).
 */

/** The first path segment of every control endpoint. */
export const CONTROL_SEGMENT = '__sandbox';

/** The first path segments of the control surfaces: the control endpoints and the console. */
const CONTROL_SEGMENTS = new Set([CONTROL_SEGMENT, 'console']);

/**
 * Whether a url path reaches a control surface (an endpoint under /__sandbox, a console page) as
 * the router would see it: percent-decoded (hono decodes the path before routing), empty segments
 * dropped, any case.
 */
export function isControlPath(pathname: string): boolean {
  const first = pathname.split('/').find((segment) => segment.length > 0) ?? '';
  return CONTROL_SEGMENTS.has(decodePercent(first).toLowerCase());
}

/** Decodes each %XX on its own, so one malformed escape cannot hide the others. */
function decodePercent(segment: string): string {
  return segment.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

const portOf = (url: URL): number =>
  url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;

/** `host:port` of an origin or url, with the host in its canonical form; null when it does not parse. */
function endpointOf(value: string | URL): string | null {
  let url: URL;
  try {
    url = typeof value === 'string' ? new URL(value) : value;
  } catch {
    return null;
  }
  return `${canonicalHost(url.hostname)}:${portOf(url)}`;
}

/**
 * The origins a server listening on `host`:`port` answers on: the host itself, and every address
 * of the machine when it listens on all of them (0.0.0.0, ::).
 */
export function listeningOrigins(host: string, port: number): string[] {
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  const hosts = [bare];
  if (bare === '0.0.0.0' || bare === '::' || bare === '') {
    for (const addresses of Object.values(networkInterfaces())) {
      for (const { address } of addresses ?? []) hosts.push(address.split('%')[0] ?? address);
    }
  }
  return hosts.map((h) => `http://${h.includes(':') ? `[${h}]` : h}:${port}`);
}

/** The endpoints of the sandbox itself, to test targets against. */
export class OwnEndpoints {
  readonly #endpoints = new Set<string>();

  constructor(origins: Iterable<string | null | undefined>) {
    for (const origin of origins) {
      const endpoint = origin ? endpointOf(origin) : null;
      if (endpoint !== null) this.#endpoints.add(endpoint);
    }
  }

  /** Whether an address (as resolved, an IP) on this port is one of the sandbox's. */
  isOwnAddress(address: string, port: number): boolean {
    return this.#endpoints.has(`${canonicalHost(address)}:${port}`);
  }

  /** Whether a url is a control endpoint of the sandbox itself, as far as its text tells. */
  isOwnControlUrl(value: string): boolean {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return false;
    }
    if (!isControlPath(url.pathname)) return false;
    const endpoint = endpointOf(url);
    return endpoint !== null && this.#endpoints.has(endpoint);
  }

  /**
   * For a control-path url, the check to make on the addresses its host name resolves to (the
   * sender calls it only for names, not for addresses); null when the url needs none.
   */
  addressGuard(value: string): ((address: string) => boolean) | null {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return null;
    }
    if (!isControlPath(url.pathname)) return null;
    const port = portOf(url);
    return (address) => this.isOwnAddress(address, port);
  }
}
