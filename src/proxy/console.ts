import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostAllowed } from '../platform/request-policy.js';
import type { CheckedLine } from './checks.js';
import {
  CONSOLE_CSP,
  consolePage,
  exchangeRow,
  exchangeRows,
  findingsHtml,
  summaryHtml,
  totalsHtml,
} from './console-page.js';
import type { DriftReport } from './drift.js';
import { type DriftEntry, withKnown } from './drift-file.js';
import { driftToJUnit, driftToMarkdown } from './drift-format.js';
import { exchangeLine } from './live.js';

/**
 * The drift console: a second listener of the proxy, on loopback, that shows the drift as it happens
 * in a browser. It is never the forwarding listener (every path of that one goes to the upstream), so
 * its paths cannot shadow the service's. It serves one page, a live stream of Server-Sent Events, the
 * report as JSON (what `proxy.report()` gives) and the report's files.
 *
 * Who may reach it: a page or a program on this machine, at a loopback name. A Host that names
 * anything else is refused (a page of another site that rebinds its name to 127.0.0.1 reads
 * nothing), no answer carries a CORS header, and it takes GET alone. What it shows was scrubbed
 * before the checks read it. How much it may cost the proxy: a bounded number of streams, each with
 * a bounded queue; a stream that falls behind is dropped, never waited for.
 */

export interface ConsoleOptions {
  /** Port on 127.0.0.1 (0: a free one). */
  port?: number;
  /** The fail-on list the JUnit download fails on (default `error`). */
  failOn?: string;
  /** Live streams at once (default 16); one more is refused with 503. */
  maxStreams?: number;
  /** Bytes a stream may have waiting to be sent (default 1 MiB); past it the stream is dropped. */
  maxQueuedBytes?: number;
}

export interface ConsoleSource {
  /** The drift report now, as `proxy.report()` gives it. */
  report(): Promise<DriftReport>;
  /** The drift file's entries, to mark the live lines' findings known as the report marks them. */
  known: readonly DriftEntry[];
}

const DEFAULT_STREAMS = 16;
const DEFAULT_QUEUED_BYTES = 1024 * 1024;
/** The last exchanges the page and a new stream show. */
const RECENT_ROWS = 100;
/** The counts, summary and findings are sent at most this often (they are the whole report). */
const REPORT_EVERY_MS = 500;
/** A comment line keeps an idle stream open and finds a client that went away. */
const KEEP_ALIVE_MS = 15_000;
/** Connections of every kind at once: the streams, and room for the page and its downloads. */
const MAX_CONNECTIONS = 64;

const COMMON_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

/** Every answer that is not the page itself: no source of any kind, no framing. */
const NOTHING_CSP = "default-src 'none'; frame-ancestors 'none'";

function plain(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, {
    ...COMMON_HEADERS,
    'content-security-policy': NOTHING_CSP,
    'content-type': 'text/plain; charset=utf-8',
    ...extra,
  });
  res.end(`${text}\n`);
}

const event = (name: string, data: unknown): string => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

export class DriftConsole {
  readonly #source: ConsoleSource;
  readonly #options: Required<Omit<ConsoleOptions, 'port'>>;
  readonly #server: Server;
  readonly #streams = new Set<ServerResponse>();
  readonly #recent: string[] = [];
  #reportTimer: NodeJS.Timeout | null = null;
  #reporting = false;
  #reportAgain = false;
  #keepAlive: NodeJS.Timeout | null = null;
  #closed = false;
  url = '';

  private constructor(source: ConsoleSource, options: ConsoleOptions) {
    this.#source = source;
    this.#options = {
      failOn: options.failOn || 'error',
      maxStreams: options.maxStreams ?? DEFAULT_STREAMS,
      maxQueuedBytes: options.maxQueuedBytes ?? DEFAULT_QUEUED_BYTES,
    };
    this.#server = createServer({ keepAliveTimeout: 5000 }, (req, res) => {
      this.#answer(req, res).catch((error: unknown) => {
        if (!res.headersSent) plain(res, 500, `The drift console failed: ${(error as Error).message}`);
        else res.destroy();
      });
    });
    this.#server.maxConnections = MAX_CONNECTIONS;
  }

  /** Starts the console's listener on 127.0.0.1. */
  static async start(source: ConsoleSource, options: ConsoleOptions = {}): Promise<DriftConsole> {
    const drift = new DriftConsole(source, options);
    await new Promise<void>((resolve, reject) => {
      drift.#server.once('error', reject);
      drift.#server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
    drift.url = `http://127.0.0.1:${(drift.#server.address() as AddressInfo).port}`;
    drift.#keepAlive = setInterval(() => drift.#broadcast(': keep-alive\n\n'), KEEP_ALIVE_MS);
    drift.#keepAlive.unref();
    return drift;
  }

  /** The live streams open now. */
  get streams(): number {
    return this.#streams.size;
  }

  /** Takes an exchange once checked: a row for the page, an event for every stream, the report soon. */
  checked(line: CheckedLine): void {
    if (this.#closed) return;
    const known = this.#source.known;
    const findings =
      known.length === 0
        ? line.findings
        : withKnown({ findings: line.findings } as DriftReport, known).findings;
    const shown = { ...line, findings };
    const row = exchangeRow(shown);
    this.#recent.push(row);
    if (this.#recent.length > RECENT_ROWS) this.#recent.shift();
    if (this.#streams.size === 0) return;
    const { exchange } = line;
    this.#broadcast(
      event('exchange', {
        id: exchange.id,
        line: exchangeLine(shown),
        method: exchange.method,
        path: exchange.path,
        query: exchange.query,
        status: exchange.status,
        duration_ms: Math.round(exchange.durationMs),
        upstream_error: exchange.upstreamError,
        replayed: line.replayed,
        findings: findings.map((finding) => ({
          kind: finding.kind,
          group: finding.group,
          severity: finding.severity,
          at: finding.at,
          document: finding.document,
          service: finding.service,
          sandbox: finding.sandbox,
          count: finding.count,
          known: finding.known,
        })),
        row,
      }),
    );
    this.#scheduleReport();
  }

  /** Ends every stream (after telling it the proxy stopped) and closes the listener. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#reportTimer) clearTimeout(this.#reportTimer);
    if (this.#keepAlive) clearInterval(this.#keepAlive);
    for (const stream of this.#streams) stream.end(event('end', {}));
    this.#streams.clear();
    await new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }

  async #answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const host = req.headers.host;
    if (host === undefined || !hostAllowed(host, []))
      return plain(
        res,
        403,
        `The drift console answers at a loopback name alone (127.0.0.1, localhost, [::1]), not at '${host ?? ''}'.`,
      );
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return plain(res, 405, 'The drift console takes GET alone.', { allow: 'GET, HEAD' });
    const path = (req.url ?? '/').split('?')[0];
    switch (path) {
      case '/':
        return this.#page(res);
      case '/events':
        return this.#stream(req, res);
      case '/report.json':
        return this.#file(
          res,
          'application/json',
          `${JSON.stringify(await this.#source.report(), null, 2)}\n`,
        );
      case '/report.md':
        return this.#file(res, 'text/markdown', driftToMarkdown(await this.#source.report()), 'drift.md');
      case '/report.xml':
        return this.#file(
          res,
          'application/xml',
          driftToJUnit(await this.#source.report(), this.#options.failOn),
          'drift.xml',
        );
      default:
        return plain(
          res,
          404,
          'The drift console has its page at /, its stream at /events and the report at /report.json, /report.md and /report.xml.',
        );
    }
  }

  async #page(res: ServerResponse): Promise<void> {
    const html = consolePage(await this.#source.report(), this.#recent, RECENT_ROWS);
    res.writeHead(200, {
      ...COMMON_HEADERS,
      'content-security-policy': CONSOLE_CSP,
      'x-frame-options': 'DENY',
      'content-type': 'text/html; charset=utf-8',
    });
    res.end(html);
  }

  #file(res: ServerResponse, type: string, text: string, download?: string): void {
    res.writeHead(200, {
      ...COMMON_HEADERS,
      'content-security-policy': NOTHING_CSP,
      'content-type': `${type}; charset=utf-8`,
      ...(download ? { 'content-disposition': `attachment; filename="${download}"` } : {}),
    });
    res.end(text);
  }

  #stream(req: IncomingMessage, res: ServerResponse): void {
    if (this.#streams.size >= this.#options.maxStreams) {
      plain(
        res,
        503,
        `The drift console serves ${this.#options.maxStreams} live streams at once, and that many are open: close a page of the console and reload this one.`,
        { 'retry-after': '5' },
      );
      return;
    }
    res.writeHead(200, {
      ...COMMON_HEADERS,
      'content-security-policy': NOTHING_CSP,
      'content-type': 'text/event-stream; charset=utf-8',
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    this.#streams.add(res);
    res.once('close', () => this.#streams.delete(res));
    this.#send(res, `retry: 2000\n\n${event('recent', { rows: exchangeRows(this.#recent) })}`);
    this.#sendReport([res]).catch(() => undefined);
  }

  /**
   * Writes to one stream; one whose queue is already past its bound (it fell behind) is dropped
   * instead, so the proxy never waits. The bound is checked before the write: a first event larger
   * than it (the last exchanges, to a new stream) is sent, not taken for a stream falling behind.
   */
  #send(stream: ServerResponse, text: string): void {
    if (stream.destroyed || stream.writableEnded) return;
    if (stream.writableLength > this.#options.maxQueuedBytes) {
      this.#streams.delete(stream);
      stream.destroy();
      return;
    }
    stream.write(text);
  }

  #broadcast(text: string): void {
    for (const stream of [...this.#streams]) this.#send(stream, text);
  }

  #scheduleReport(): void {
    if (this.#reportTimer !== null) return;
    this.#reportTimer = setTimeout(() => {
      this.#reportTimer = null;
      if (this.#reporting) {
        this.#reportAgain = true;
        return;
      }
      this.#sendReport([...this.#streams]).catch(() => undefined);
    }, REPORT_EVERY_MS);
    this.#reportTimer.unref();
  }

  /** The counts, summary and findings of the report now, to some streams (each new one, or all). */
  async #sendReport(streams: ServerResponse[]): Promise<void> {
    this.#reporting = true;
    try {
      const report = await this.#source.report();
      if (this.#closed) return;
      const text = event('report', {
        exchanges: report.exchanges,
        unchecked: report.unchecked,
        totals: totalsHtml(report),
        summary: summaryHtml(report),
        findings: findingsHtml(report),
      });
      for (const stream of streams) if (this.#streams.has(stream)) this.#send(stream, text);
    } finally {
      this.#reporting = false;
      if (this.#reportAgain) {
        this.#reportAgain = false;
        this.#scheduleReport();
      }
    }
  }
}
