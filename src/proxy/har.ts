import type { Exchange } from './checks.js';

/**
 * The exchanges as a HAR 1.2 log (the HTTP Archive format browsers and HTTP tools read), as the
 * checks hold them: scrubbed by the one scrubber (credentials in headers, queries and bodies
 * redacted), bodies cut at the proxy's body limit (the entry's comment says so).
 */

/** Entries kept at most, and the bytes of their bodies: past either, the oldest go. */
const MAX_ENTRIES = 10_000;
export const MAX_HAR_BYTES = 256 * 1024 * 1024;

const pairs = (headers: Record<string, string>) =>
  Object.entries(headers).map(([name, value]) => ({ name, value }));

function queryOf(query: string): { name: string; value: string }[] {
  if (query === '') return [];
  return query.split('&').map((pair) => {
    const at = pair.indexOf('=');
    return at === -1 ? { name: pair, value: '' } : { name: pair.slice(0, at), value: pair.slice(at + 1) };
  });
}

export class HarLog {
  readonly #upstream: string;
  readonly #version: string;
  readonly #entries: { entry: object; bytes: number }[] = [];
  #bytes = 0;

  constructor(upstream: string, version: string) {
    this.#upstream = upstream;
    this.#version = version;
  }

  add(exchange: Exchange): void {
    const bytes = exchange.requestBody.length + exchange.responseText.length;
    while (
      this.#entries.length > 0 &&
      (this.#entries.length >= MAX_ENTRIES || this.#bytes + bytes > MAX_HAR_BYTES)
    )
      this.#bytes -= (this.#entries.shift() as { bytes: number }).bytes;
    this.#bytes += bytes;
    const cut = [
      exchange.requestTruncated && 'request body cut',
      exchange.responseTruncated && 'response body cut',
    ].filter(Boolean);
    const entry = {
      startedDateTime: new Date(exchange.startedAt).toISOString(),
      time: Math.round(exchange.durationMs * 1000) / 1000,
      request: {
        method: exchange.method,
        url: `${this.#upstream}${exchange.path}${exchange.query ? `?${exchange.query}` : ''}`,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: pairs(exchange.requestHeaders),
        queryString: queryOf(exchange.query),
        ...(exchange.requestBody !== ''
          ? {
              postData: {
                mimeType: exchange.requestHeaders['content-type'] ?? '',
                text: exchange.requestBody,
              },
            }
          : {}),
        headersSize: -1,
        bodySize: Buffer.byteLength(exchange.requestBody),
      },
      response: {
        status: exchange.status,
        statusText: '',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: pairs(exchange.responseHeaders),
        content: {
          size: Buffer.byteLength(exchange.responseText),
          mimeType: exchange.responseHeaders['content-type'] ?? '',
          text: exchange.responseText,
        },
        redirectURL: exchange.responseHeaders.location ?? '',
        headersSize: -1,
        bodySize: Buffer.byteLength(exchange.responseText),
      },
      cache: {},
      timings: { send: 0, wait: Math.round(exchange.durationMs * 1000) / 1000, receive: 0 },
      comment: [
        exchange.id,
        ...cut,
        ...(exchange.upstreamError ? [`upstream error: ${exchange.upstreamError}`] : []),
      ].join('; '),
    };
    this.#entries.push({ entry, bytes });
  }

  log(): object {
    return {
      log: {
        version: '1.2',
        creator: { name: 'unified-api-sandbox proxy', version: this.#version },
        entries: this.#entries.map((kept) => kept.entry),
      },
    };
  }
}
