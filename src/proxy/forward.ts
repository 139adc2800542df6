import {
  request as httpRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';

/**
 * The forwarding half of the proxy: every request that reaches it goes to the one upstream it was
 * given, and the upstream's answer goes back as it came (status, headers, body, streamed both ways).
 * It adds no header; it follows no redirect (a 3xx goes back to the client as it is); it never makes
 * up an answer when the upstream fails: an upstream's own status (a 501, a 503) is passed on, and
 * only an upstream that cannot be reached or does not answer in time gives a 502 with a plain body
 * naming the error. It reaches nothing but the upstream: a request target in absolute form
 * (`GET http://elsewhere/`) and CONNECT are refused, and Host is the upstream's.
 *
 * Of each exchange it keeps, for the checks, at most `bodyLimit` bytes of either body (the rest
 * flows through without being held), and hands it to `onExchange` once the answer has ended.
 */

/** Headers that belong to one connection (RFC 9110, 7.6.1), never forwarded either way. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
]);

export interface CapturedExchange {
  /** The exchange's id, in the order requests arrived: `x1`, `x2`... */
  id: string;
  startedAt: number;
  durationMs: number;
  method: string;
  /** The request target as the client sent it (path and query). */
  target: string;
  requestHeaders: Record<string, string>;
  requestBody: Buffer;
  requestTruncated: boolean;
  /** The upstream's status, or 502 when it could not be reached (then `upstreamError` says why). */
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: Buffer;
  responseTruncated: boolean;
  upstreamError: string | null;
}

export interface ForwardOptions {
  upstream: URL;
  /** Bytes of each body kept for the checks (default 1 MiB). */
  bodyLimit?: number;
  /** Milliseconds the upstream has to start its answer (default 60,000). */
  timeoutMs?: number;
  onExchange?: (exchange: CapturedExchange) => void;
}

/** The headers a connection-scoped list names (`Connection: close, x-foo`), lower case. */
function connectionOptions(value: string | string[] | undefined): Set<string> {
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  return new Set(
    text
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
}

/** A raw header list (name, value, name, value...) less what belongs to one hop. */
function endToEnd(raw: string[], skip: (name: string) => boolean): [string, string][] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2)
    if ((raw[i] as string).toLowerCase() === 'connection')
      for (const name of connectionOptions(raw[i + 1])) named.add(name);
  const out: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || named.has(lower) || skip(lower)) continue;
    out.push([name, raw[i + 1] as string]);
  }
  return out;
}

/** Headers by lower-case name, repeated ones joined as HTTP joins them. */
function headerRecord(pairs: [string, string][]): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const [name, value] of pairs) {
    const lower = name.toLowerCase();
    out[lower] = lower in out ? `${out[lower]}${lower === 'set-cookie' ? '\n' : ', '}${value}` : value;
  }
  return out;
}

/** Keeps the first `limit` bytes of a stream's chunks. */
class Tap {
  readonly #limit: number;
  readonly #chunks: Buffer[] = [];
  #held = 0;
  truncated = false;
  constructor(limit: number) {
    this.#limit = limit;
  }
  add(chunk: Buffer): void {
    if (this.#held >= this.#limit) {
      this.truncated = true;
      return;
    }
    const room = this.#limit - this.#held;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept.length < chunk.length) this.truncated = true;
    this.#chunks.push(Buffer.from(kept));
    this.#held += kept.length;
  }
  bytes(): Buffer {
    return Buffer.concat(this.#chunks);
  }
}

/** A plain-text answer of the proxy itself (a refusal, an unreachable upstream). */
function plain(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** The upstream's path joined with the request's target (an upstream may sit under a base path). */
export function upstreamPath(upstream: URL, target: string): string {
  const base = upstream.pathname.endsWith('/') ? upstream.pathname.slice(0, -1) : upstream.pathname;
  return `${base}${target}`;
}

/**
 * Installs the forwarding on a node:http server. Node's https client is loaded for an https upstream
 * alone (dynamic import): the package's import does not pay for TLS.
 */
export async function installForwarding(server: Server, options: ForwardOptions): Promise<void> {
  const { upstream } = options;
  const bodyLimit = options.bodyLimit ?? 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const send = upstream.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
  let sequence = 0;

  // CONNECT would open a tunnel to anywhere: refused, and the socket closed.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    socket.end('HTTP/1.1 405 Method Not Allowed\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n');
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const target = req.url ?? '/';
    if (!target.startsWith('/')) {
      plain(res, 400, 'This proxy forwards only to its upstream: send the path, not an absolute url.\n');
      req.resume();
      return;
    }
    // The upstream's Date, or none: the proxy adds no header of its own.
    res.sendDate = false;
    sequence += 1;
    const id = `x${sequence}`;
    const startedAt = Date.now();
    const began = performance.now();
    const requestPairs = endToEnd(req.rawHeaders, (name) => name === 'host');
    const outgoing: OutgoingHttpHeaders = {};
    for (const [name, value] of requestPairs) {
      const existing = outgoing[name];
      if (existing === undefined) outgoing[name] = value;
      else outgoing[name] = Array.isArray(existing) ? [...existing, value] : [String(existing), value];
    }
    outgoing.host = upstream.host;
    const requestTap = new Tap(bodyLimit);
    const responseTap = new Tap(bodyLimit);
    let finished = false;
    const finish = (status: number, responsePairs: [string, string][], upstreamError: string | null) => {
      if (finished) return;
      finished = true;
      options.onExchange?.({
        id,
        startedAt,
        durationMs: performance.now() - began,
        method: req.method ?? 'GET',
        target,
        requestHeaders: headerRecord(requestPairs),
        requestBody: requestTap.bytes(),
        requestTruncated: requestTap.truncated,
        status,
        responseHeaders: headerRecord(responsePairs),
        responseBody: responseTap.bytes(),
        responseTruncated: responseTap.truncated,
        upstreamError,
      });
    };
    const upstreamRequest = send(
      {
        protocol: upstream.protocol,
        hostname: upstream.hostname,
        port: upstream.port || undefined,
        method: req.method,
        path: upstreamPath(upstream, target),
        headers: outgoing,
        timeout: timeoutMs,
      },
      (answer) => {
        const responsePairs = endToEnd(answer.rawHeaders, () => false);
        const flat = responsePairs.flat();
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, flat);
        answer.on('data', (chunk: Buffer) => responseTap.add(chunk));
        answer.pipe(res);
        answer.on('end', () => finish(answer.statusCode ?? 502, responsePairs, null));
        answer.on('error', (error) => {
          res.destroy();
          finish(answer.statusCode ?? 502, responsePairs, error.message);
        });
      },
    );
    upstreamRequest.on('timeout', () => {
      upstreamRequest.destroy(new Error(`the upstream did not answer within ${timeoutMs} ms`));
    });
    upstreamRequest.on('error', (error: NodeJS.ErrnoException) => {
      const why = `${error.code ? `${error.code}: ` : ''}${error.message}`;
      plain(res, 502, `The upstream ${upstream.origin} could not be reached: ${why}\n`);
      finish(502, [], why);
    });
    // The client went away: so does the upstream request.
    res.on('close', () => {
      if (!res.writableFinished) upstreamRequest.destroy();
    });
    req.on('data', (chunk: Buffer) => requestTap.add(chunk));
    req.pipe(upstreamRequest);
  });
}
