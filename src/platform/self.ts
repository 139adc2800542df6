import { randomBytes } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { canonicalHost, hostOfHeader } from '../lib/hosts.js';

/**
 * The sandbox itself, as a webhook url or a delivery could name it: one per server, shared by the
 * default world and every world a hub creates, since they all answer on the same addresses.
 *
 * A delivery is a POST without any token. Aimed at the sandbox, it would be journaled as the
 * client's traffic of whichever world its path and body select (the default world for most paths,
 * any world under `/__worlds/<id>/`), complete a link page, or, on loopback where the control
 * endpoints need no token, reset a world or redeliver itself forever. So no world delivers to the
 * sandbox, on any path:
 *
 * - at creation of a webhook (and at each attempt), a url whose host and port are one of the
 *   sandbox's own is refused: the addresses it listens on (every address of the machine when it
 *   listens on all of them), its public url, the exact names given as allowed hosts on those ports,
 *   and the origin the request came through. Every name of loopback (localhost, 127.x.x.x, ::1,
 *   0.0.0.0, ::, their IPv4-mapped forms) counts as the same host, port by port, so a receiver on
 *   loopback at another port is still called;
 * - at send, a host name that resolves to one of those addresses on that port is refused before
 *   the connection is made (postWebhook's guarded lookup);
 * - every delivery carries the one marker of the server (`marker`), and every world's request
 *   policy refuses a request bearing it: what no url can tell (a proxy, a relay, a wildcard allowed
 *   host) is refused when it arrives.
 */
export class SandboxSelf {
  /** The value of the delivery header (request-policy.ts, SELF_CALL_HEADER): drawn once, never stored. */
  readonly marker = randomBytes(32).toString('base64url');
  readonly #publicUrl: string | null;
  /** The exact names given as allowed hosts (not the `.domain` patterns, nor `*`). */
  readonly #names: readonly string[];
  readonly #listening = new Set<string>();

  constructor(options: { publicUrl?: string | null; allowedHosts?: readonly string[] | '*' } = {}) {
    this.#publicUrl = options.publicUrl ?? null;
    const hosts = options.allowedHosts ?? [];
    const names = hosts === '*' ? [] : hosts.filter((name) => !name.trim().startsWith('.'));
    // Given as a Host would name them (a port, brackets or a trailing dot are left out).
    this.#names = names.map(hostOfHeader).filter((name): name is string => name !== null);
  }

  /** Records an origin the sandbox answers on (startSandbox does once it listens; so may whoever serves an app). */
  answersOn(origin: string): void {
    this.#listening.add(origin);
  }

  /** The origins it is known to answer on: where it listens, and its public url. */
  get origins(): string[] {
    return [...this.#listening, ...(this.#publicUrl ? [this.#publicUrl] : [])];
  }

  /**
   * Its endpoints, with `requestOrigin` (the origin a request came through, which covers an app
   * served by other means) when there is one.
   */
  endpoints(requestOrigin?: string | null): OwnEndpoints {
    const origins: string[] = this.origins;
    if (requestOrigin) origins.push(requestOrigin);
    const ports = new Set(origins.map((origin) => portOfOrigin(origin)).filter((port) => port !== null));
    for (const name of this.#names) {
      for (const port of ports) origins.push(`http://${name.includes(':') ? `[${name}]` : name}:${port}`);
    }
    return new OwnEndpoints(origins);
  }
}

const portOf = (url: URL): number =>
  url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;

function portOfOrigin(origin: string): number | null {
  try {
    return portOf(new URL(origin));
  } catch {
    return null;
  }
}

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

/** The endpoints (canonical host and port) of the sandbox itself, to test urls and addresses against. */
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

  /** Whether a url names the sandbox itself, as far as its text tells (any path). */
  isOwnUrl(value: string): boolean {
    const endpoint = endpointOf(value);
    return endpoint !== null && this.#endpoints.has(endpoint);
  }

  /**
   * The check to make on the addresses a url's host name resolves to (the sender calls it only for
   * names, not for addresses); null when the url does not parse.
   */
  addressGuard(value: string): ((address: string) => boolean) | null {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return null;
    }
    const port = portOf(url);
    return (address) => this.isOwnAddress(address, port);
  }
}
