import type { Finding as ClientFinding } from '../control/report/index.js';
import type { DriftEntry } from '../lib/drift-file.js';
import { REDACTED, Scrubber } from '../platform/scrub.js';
import { type Difference, differences } from './compare.js';
import { DocumentCheck } from './document-check.js';
import { type DriftFinding, DriftFindings, type DriftKind, type DriftReport } from './drift.js';
import type { CapturedExchange } from './forward.js';
import { ReplayWorld } from './replay.js';

/**
 * The checks of every exchange, one after the other in the order they ended (the sandbox world they
 * are replayed at sees the client's writes in its order), behind the forwarding: the client never
 * waits for them. What the checks keep of an exchange has gone through the one scrubber first: no
 * credential is held past the forwarding.
 */

/** An exchange as the checks, the recorder and the HAR read it: scrubbed. */
export interface Exchange {
  id: string;
  startedAt: number;
  durationMs: number;
  method: string;
  path: string;
  query: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  requestTruncated: boolean;
  status: number;
  responseHeaders: Record<string, string>;
  responseText: string;
  /** The answer parsed when it is JSON and was read whole, else undefined. */
  responseBody: unknown;
  responseTruncated: boolean;
  upstreamError: string | null;
  operationId: string | null;
  /** The operation's published path, when it matched one. */
  template: string | null;
  area: string | null;
}

/** What the console shows of an exchange once checked. */
export interface CheckedLine {
  exchange: Exchange;
  findings: DriftFinding[];
  replayed: boolean;
}

/** Checks waiting at most, and the bytes of body they hold; past either an exchange is forwarded but not checked (and counted). */
const MAX_PENDING = 10_000;
const MAX_PENDING_BYTES = 64 * 1024 * 1024;

const SANDBOX_KINDS: Record<Difference['kind'], DriftKind> = {
  status: 'sandbox_status',
  error: 'sandbox_error',
  shape: 'sandbox_shape',
  pagination: 'sandbox_pagination',
  order: 'sandbox_order',
};

function flatOf(headers: Record<string, string>): string[] {
  return Object.entries(headers).flat();
}

function recordOf(flat: readonly string[]): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i] as string] = flat[i + 1] as string;
  return out;
}

/**
 * Scrubbed request headers, with a bearer token the scrubber replaced kept as a bearer token the
 * sandbox never issued: a refused token is replayed as a refused token, not as a malformed header.
 */
function replayableHeaders(
  raw: Record<string, string>,
  scrubbed: Record<string, string>,
): Record<string, string> {
  const original = raw.authorization;
  if (original !== undefined && scrubbed.authorization === REDACTED && /^Bearer\s+\S+/i.test(original))
    scrubbed.authorization = `Bearer ${REDACTED}`;
  return scrubbed;
}

function parsedBody(headers: Record<string, string>, text: string, truncated: boolean): unknown {
  if (truncated || !(headers['content-type'] ?? '').includes('json') || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface ChecksOptions {
  upstream: string;
  /** The seed of the sandbox world the traffic is replayed at (default 1). */
  seed?: number;
  /** The drift file's entries the replay world follows (a sandbox served with `--drift`). */
  follow?: readonly DriftEntry[];
  onChecked?: (line: CheckedLine) => void;
  /** Every exchange once checked, for the recorder and the HAR. */
  onExchange?: (exchange: Exchange) => void;
}

export class Checks {
  readonly #options: ChecksOptions;
  readonly #scrubber = new Scrubber();
  readonly #world: ReplayWorld;
  readonly #found = new DriftFindings();
  #document: DocumentCheck | null = null;
  #queue: Promise<void> = Promise.resolve();
  #pending = 0;
  #pendingBytes = 0;
  #exchanges = 0;
  #unchecked = 0;

  constructor(options: ChecksOptions) {
    this.#options = options;
    this.#world = new ReplayWorld(options.seed ?? 1, options.follow);
  }

  /** The check of the service's document (made once, from the one the sandbox serves). */
  async documentCheck(): Promise<DocumentCheck> {
    return this.#documentCheck();
  }

  async #documentCheck(): Promise<DocumentCheck> {
    if (this.#document === null) {
      const res = await this.#world.app.request('/openapi.json');
      this.#document = new DocumentCheck((await res.json()) as Record<string, unknown>);
    }
    return this.#document;
  }

  /** Takes an exchange the forwarding ended: scrubbed now, checked in turn. */
  add(captured: CapturedExchange): void {
    this.#exchanges += 1;
    const bytes = captured.requestBody.length + captured.responseBody.length;
    if (this.#pending >= MAX_PENDING || this.#pendingBytes + bytes > MAX_PENDING_BYTES) {
      this.#unchecked += 1;
      return;
    }
    // A body past the limit was forwarded, not held: what was kept of it is not checked.
    if (captured.requestTruncated || captured.responseTruncated) this.#unchecked += 1;
    let exchange: Exchange;
    try {
      exchange = this.#scrubbed(captured);
    } catch {
      // Whatever a body holds, the forwarding goes on: the exchange is counted as not checked.
      this.#unchecked += 1;
      return;
    }
    this.#pending += 1;
    this.#pendingBytes += bytes;
    this.#queue = this.#queue
      .then(() => this.#check(exchange))
      .catch(() => {
        this.#unchecked += 1;
      })
      .finally(() => {
        this.#pending -= 1;
        this.#pendingBytes -= bytes;
      });
  }

  #scrubbed(captured: CapturedExchange): Exchange {
    const s = this.#scrubber;
    const target = s.url(captured.target);
    const at = target.indexOf('?');
    const responseHeaders = recordOf(s.headers(flatOf(captured.responseHeaders)));
    const responseText = s.body(captured.responseBody.toString('utf8'));
    return {
      id: captured.id,
      startedAt: captured.startedAt,
      durationMs: captured.durationMs,
      method: captured.method,
      path: at === -1 ? target : target.slice(0, at),
      query: at === -1 ? '' : target.slice(at + 1),
      requestHeaders: replayableHeaders(
        captured.requestHeaders,
        recordOf(s.headers(flatOf(captured.requestHeaders))),
      ),
      requestBody: s.body(captured.requestBody.toString('utf8')),
      requestTruncated: captured.requestTruncated,
      status: captured.status,
      responseHeaders,
      responseText,
      responseBody: parsedBody(responseHeaders, responseText, captured.responseTruncated),
      responseTruncated: captured.responseTruncated,
      upstreamError: captured.upstreamError,
      operationId: null,
      template: null,
      area: null,
    };
  }

  async #check(exchange: Exchange): Promise<void> {
    const document = await this.#documentCheck();
    const checked = document.check({ ...exchange, body: exchange.responseBody });
    const operation = checked.operation;
    const findings: DriftFinding[] = [];
    const place = {
      operation_id: operation?.operationId ?? null,
      method: exchange.method,
      path: operation?.path ?? exchange.path,
    };
    if (operation) {
      exchange.operationId = operation.operationId;
      exchange.template = operation.path;
      exchange.area = operation.area;
    } else if (exchange.upstreamError === null) {
      findings.push(
        this.#found.add(
          'unknown_operation',
          { ...place, at: 'path', service: String(exchange.status) },
          exchange.id,
        ),
      );
    }
    for (const finding of checked.findings)
      findings.push(
        this.#found.add(
          finding.kind,
          { ...place, at: finding.at, document: finding.expected, service: finding.seen },
          exchange.id,
        ),
      );
    const conforming = checked.findings.length === 0;
    let replayed = false;
    let agreeing = false;
    if (exchange.upstreamError === null && !exchange.requestTruncated && !exchange.responseTruncated) {
      const answer = await this.#world.replay({
        ...exchange,
        headers: exchange.requestHeaders,
        body: exchange.requestBody,
        serviceStatus: exchange.status,
      });
      const found = differences({ status: exchange.status, body: exchange.responseBody }, answer);
      // A record the world does not hold (an id of the service's data no answer mapped yet) is not a
      // difference of the sandbox: the request is counted as not replayed.
      const unknownRecord = answer.unmappedIds && answer.status === 404 && exchange.status < 300;
      if (!unknownRecord) {
        replayed = true;
        agreeing = found.length === 0;
        for (const difference of found)
          findings.push(
            this.#found.add(
              SANDBOX_KINDS[difference.kind],
              { ...place, at: difference.at, service: difference.service, sandbox: difference.sandbox },
              exchange.id,
            ),
          );
        if (exchange.status < 300 && answer.status < 300)
          this.#world.learn(exchange.responseBody, answer.body);
      }
    }
    if (operation)
      this.#found.count(
        { operation_id: operation.operationId, method: operation.method, path: operation.path },
        { conforming, replayed, agreeing },
      );
    this.#options.onChecked?.({ exchange, findings, replayed });
    this.#options.onExchange?.(exchange);
  }

  /** Resolves once every exchange taken so far is checked. */
  async settled(): Promise<void> {
    let queue: Promise<void>;
    do {
      queue = this.#queue;
      await queue;
    } while (queue !== this.#queue);
  }

  /** The client's readiness findings, read from the world the traffic was replayed at. */
  async #clientFindings(): Promise<ClientFinding[]> {
    const res = await this.#world.app.request('/__sandbox/report?format=json');
    if (res.status !== 200) return [];
    const report = (await res.json()) as { findings?: ClientFinding[] };
    // The world answers in process, at no origin: its links are the guides' paths, which any running
    // sandbox serves (/guides/readiness#kind).
    return (report.findings ?? []).map((finding) => ({
      ...finding,
      docs: finding.docs.replace(/^https?:\/\/[^/]+/, ''),
    }));
  }

  async report(): Promise<DriftReport> {
    await this.settled();
    return {
      upstream: this.#options.upstream,
      generated_at: new Date().toISOString(),
      exchanges: this.#exchanges,
      unchecked: this.#unchecked,
      summary: this.#found.summary(),
      findings: this.#found.findings(),
      client_findings: await this.#clientFindings(),
    };
  }
}
