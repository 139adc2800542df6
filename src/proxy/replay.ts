import { createApp, type SandboxApp } from '../app.js';
import { seedDirectory, VERTICAL_SHOWCASE } from '../control/seeded-world.js';
import type { DriftEntry } from '../lib/drift-file.js';
import { VERTICALS } from '../verticals.js';

/**
 * The sandbox side of the comparison: an in-process sandbox world that every exchange the proxy saw
 * is replayed at, in the order the client made them, mapped onto the world's ids.
 *
 * - Authentication: a token exchange the service granted is replayed with the world's own sandbox
 *   key, and every call it authorized with the world's token; one the service refused is replayed as
 *   it was (its credentials redacted), to compare the refusals.
 * - Ids: an id of the service's answer is mapped to the id at the same place of the world's answer
 *   to the same request (a list's items by position, a created record's id); a consumer id met in a
 *   vertical's path is the world's consumer of that vertical; any other id is sent as it is.
 */

type Json = Record<string, unknown>;

export interface ReplayRequest {
  method: string;
  /** The path as the client sent it, without its query. */
  path: string;
  query: string;
  /** The published path template, when the request matched an operation. */
  template: string | null;
  /** The operation's vertical segment (accounting, pos...), else null. */
  area: string | null;
  headers: Record<string, string>;
  body: string;
  /** What the service answered: decides which credentials the replay carries. */
  serviceStatus: number;
}

export interface ReplayAnswer {
  status: number;
  body: unknown;
  text: string;
  headers: Headers;
  /** Whether some id of the request had no counterpart learned in the world (sent as it was). */
  unmappedIds: boolean;
}

const MAX_IDS = 100_000;
/** Where the world's webhook deliveries go: loopback's discard port, which no one listens on. */
const NOWHERE = 'http://127.0.0.1:9/';
const MAX_ALIGN_DEPTH = 8;
const ID_KEY = /(^id$|_id$|id$)/i;

const isTokenPath = (path: string) => path === '/token' || path.endsWith('/token');

export class ReplayWorld {
  readonly app: SandboxApp;
  readonly #ids: ReturnType<typeof seedDirectory>;
  readonly #map = new Map<string, string>();
  /** Consumer ids the service answered a request about (a 404 about another one is replayed as it is). */
  readonly #consumers = new Set<string>();
  #token: string | null = null;

  /** `drift`: the entries the world follows, as a sandbox served with that drift file does. */
  constructor(seed: number, drift?: readonly DriftEntry[]) {
    this.app = createApp({ seed, connectionLife: 'off', ...(drift ? { drift } : {}) });
    this.#ids = seedDirectory(seed);
  }

  /** The world's consumer of a vertical (its path segment), or null. */
  #consumerOf(area: string | null): string | null {
    if (area === null) return null;
    const module = VERTICALS.find((candidate) => candidate.key === area);
    const showcase = VERTICAL_SHOWCASE.find((entry) => entry.api === module?.api);
    return showcase ? (this.#ids.verticalConsumers[showcase.envName] ?? null) : null;
  }

  #mapped(value: string): string | undefined {
    return this.#map.get(value);
  }

  /** The request's path with its parameters mapped onto the world's ids. */
  #path(request: ReplayRequest, unmapped: { any: boolean }): string {
    if (request.template === null) return request.path;
    const names = request.template.split('/');
    const values = request.path.split('/');
    if (names.length !== values.length) return request.path;
    return values
      .map((value, i) => {
        const name = names[i] as string;
        if (!name.startsWith('{')) return value;
        const decoded = safeDecode(value);
        if (name === '{consumer_id}') {
          const known = request.serviceStatus !== 404 || this.#consumers.has(decoded);
          if (request.serviceStatus < 300 && this.#consumers.size < MAX_IDS) this.#consumers.add(decoded);
          const vertical = known ? (this.#consumerOf(request.area) ?? this.#consumerOf('accounting')) : null;
          if (vertical !== null) return vertical;
        }
        const mapped = this.#mapped(decoded);
        if (mapped !== undefined) return encodeURIComponent(mapped);
        unmapped.any = true;
        return value;
      })
      .join('/');
  }

  #query(query: string): string {
    if (query === '') return '';
    return query
      .split('&')
      .map((pair) => {
        const at = pair.indexOf('=');
        if (at === -1) return pair;
        const mapped = this.#mapped(safeDecode(pair.slice(at + 1)));
        return mapped === undefined ? pair : `${pair.slice(0, at)}=${encodeURIComponent(mapped)}`;
      })
      .join('&');
  }

  /**
   * A JSON body with every string the map knows replaced by its counterpart, and a webhook's url
   * replaced by one that reaches nothing (the discard port of loopback): the world's deliveries of
   * the events the replay makes must never reach the client's receiver.
   */
  #body(text: string, path: string): string {
    const webhook = /(^|\/)webhooks(\/|$)/.test(path);
    if (text === '' || (this.#map.size === 0 && !webhook)) return text;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return text;
    }
    const swap = (node: unknown, depth: number, key = ''): unknown => {
      if (depth > 32) return node;
      if (typeof node === 'string') return webhook && key === 'url' ? NOWHERE : (this.#mapped(node) ?? node);
      if (Array.isArray(node)) return node.map((item) => swap(item, depth + 1));
      if (node && typeof node === 'object')
        return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, swap(v, depth + 1, k)]));
      return node;
    };
    return JSON.stringify(swap(value, 0));
  }

  async #worldToken(): Promise<string> {
    if (this.#token === null) {
      const res = await this.app.request('/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ accountId: this.#ids.accountId, ...this.#ids.sandbox }),
      });
      this.#token = ((await res.json()) as { access_token: string }).access_token;
    }
    return this.#token;
  }

  /** Replays one request at the world. */
  async replay(request: ReplayRequest): Promise<ReplayAnswer> {
    const unmapped = { any: false };
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (name === 'content-length' || name === 'host' || name === 'accept-encoding') continue;
      headers[name] = this.#mapped(value) ?? value;
    }
    let body = request.body;
    const granted = request.serviceStatus !== 401 && request.serviceStatus !== 403;
    if (isTokenPath(request.path) && request.method === 'POST' && granted && request.serviceStatus < 300) {
      body = JSON.stringify({ accountId: this.#ids.accountId, ...this.#ids.sandbox });
    } else {
      body = this.#body(body, request.path);
      if (granted && headers.authorization !== undefined)
        headers.authorization = `Bearer ${await this.#worldToken()}`;
    }
    const path = this.#path(request, unmapped);
    const query = this.#query(request.query);
    const init: RequestInit = { method: request.method, headers };
    if (body !== '' && request.method !== 'GET' && request.method !== 'HEAD') init.body = body;
    const res = await this.app.request(`${path}${query ? `?${query}` : ''}`, init);
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text.length > 0) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: res.status, body: parsed, text, headers: res.headers, unmappedIds: unmapped.any };
  }

  /** Learns the ids of a service's answer from the world's answer to the same request. */
  learn(service: unknown, world: unknown): void {
    const walk = (a: unknown, b: unknown, key: string, depth: number) => {
      if (depth > MAX_ALIGN_DEPTH || this.#map.size >= MAX_IDS) return;
      if (typeof a === 'string' && typeof b === 'string') {
        if (ID_KEY.test(key) && a !== b && !this.#map.has(a) && !isConsumerKey(key)) this.#map.set(a, b);
        return;
      }
      if (Array.isArray(a) && Array.isArray(b)) {
        const n = Math.min(a.length, b.length);
        for (let i = 0; i < n; i += 1) walk(a[i], b[i], key, depth + 1);
        return;
      }
      if (a && b && typeof a === 'object' && typeof b === 'object')
        for (const [name, value] of Object.entries(a as Json))
          if (Object.hasOwn(b as Json, name)) walk(value, (b as Json)[name], name, depth + 1);
    };
    walk(service, world, '', 0);
  }
}

/** Consumer ids are mapped by vertical, never by position in a list. */
const isConsumerKey = (key: string) => key === 'consumerid' || key === 'consumer_id';

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
