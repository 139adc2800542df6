import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

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

/**
 * Whether a url path reaches a control endpoint as the router would see it: percent-decoded (hono
 * decodes the path before routing), empty segments dropped, any case.
 */
export function isControlPath(pathname: string): boolean {
  const first = pathname.split('/').find((segment) => segment.length > 0) ?? '';
  return decodePercent(first).toLowerCase() === CONTROL_SEGMENT;
}

/** Decodes each %XX on its own, so one malformed escape cannot hide the others. */
function decodePercent(segment: string): string {
  return segment.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

const LOOPBACK = 'loopback';

/**
 * The host as the network sees it: every loopback or unspecified address (and the names of
 * loopback) is LOOPBACK, an IPv4-mapped IPv6 address is its IPv4 address, anything else is its
 * lowercase form without brackets or a trailing dot.
 */
export function canonicalHost(hostname: string): string {
  let host = hostname.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host === 'localhost' || host.endsWith('.localhost')) return LOOPBACK;
  const version = isIP(host);
  if (version === 4) {
    const first = Number(host.split('.')[0]);
    return first === 127 || first === 0 ? LOOPBACK : host;
  }
  if (version === 6) {
    const mapped = mappedIPv4(host);
    if (mapped !== null) return canonicalHost(mapped);
    return host === '::1' || host === '::' || host === '0:0:0:0:0:0:0:1' || host === '0:0:0:0:0:0:0:0'
      ? LOOPBACK
      : host;
  }
  return host;
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:7f00:1 or ::ffff:127.0.0.1), or null. */
function mappedIPv4(host: string): string | null {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (dotted?.[1]) return dotted[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!hex?.[1] || !hex[2]) return null;
  const high = Number.parseInt(hex[1], 16);
  const low = Number.parseInt(hex[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
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
