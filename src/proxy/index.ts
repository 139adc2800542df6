import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CheckedLine, Checks, type Exchange } from './checks.js';
import { type ConsoleOptions, DriftConsole } from './console.js';
import type { DriftReport } from './drift.js';
import { type DriftEntry, withKnown } from './drift-file.js';
import { installForwarding } from './forward.js';
import { HarLog } from './har.js';
import { WorldRecorder } from './record.js';

/**
 * The recording proxy: a server on loopback that a client points at instead of the service. Every
 * request goes to the upstream as it was and its answer comes back as it was (forward.ts); behind
 * that, each exchange is checked against the service's document and replayed at a sandbox world
 * (checks.ts), and what the client read can be kept as a world the sandbox loads (record.ts) and as
 * a HAR (har.ts).
 */

export type { CheckedLine, Exchange } from './checks.js';
export type { ConsoleOptions } from './console.js';
export {
  DRIFT_KINDS,
  type DriftFinding,
  type DriftKind,
  type DriftReport,
  type OperationSummary,
} from './drift.js';
export {
  type DriftEntry,
  DriftFileError,
  driftFileText,
  readDriftFile,
} from './drift-file.js';
export { driftFailing, driftToJUnit, driftToMarkdown } from './drift-format.js';
export { exchangeLine } from './live.js';

export interface ProxyOptions {
  /** The service's base url: every request goes there, and nowhere else. */
  upstream: string;
  /** Port on 127.0.0.1 (default 0: a free one). */
  port?: number;
  /** The seed of the sandbox world the traffic is replayed at (default 1). */
  seed?: number;
  /** Bytes of each body the checks read (default 1 MiB); a larger one is forwarded unchecked. */
  bodyLimit?: number;
  /** Milliseconds the upstream has to start answering (default 60,000). */
  timeoutMs?: number;
  /** Called with each exchange once checked (the console's live lines). */
  onChecked?: (line: CheckedLine) => void;
  /** Called with each checked exchange, scrubbed. */
  onExchange?: (exchange: Exchange) => void;
  /** Keep what the client read as a fixture document (`world()`); personal values replaced unless keepValues. */
  record?: { keepValues?: boolean };
  /** Keep the exchanges, scrubbed, as a HAR log (`har()`). */
  har?: boolean;
  /** The known differences (a drift file's entries): the findings they name are marked known. */
  known?: readonly DriftEntry[];
  /**
   * Entries of a drift file the sandbox world the traffic is replayed at follows, as a sandbox served
   * with `--drift` does: the differences it follows are no longer found.
   */
  follow?: readonly DriftEntry[];
  /** The version the HAR's creator names. */
  version?: string;
  /** A second listener on loopback with a page of the drift as it happens (console.ts); off unless given. */
  console?: Pick<ConsoleOptions, 'port' | 'failOn'>;
}

export interface RunningProxy {
  /** The proxy's base url: point the client here. */
  url: string;
  port: number;
  /** The drift console's url (with `console`), else null. */
  consoleUrl: string | null;
  /** The drift report of the exchanges so far, once each is checked. */
  report(): Promise<DriftReport>;
  /** The recorded world as a fixture document (with `record`), once every exchange is checked. */
  world(): Promise<Record<string, unknown>>;
  /** The recorded world as the text of a file: YAML for a .yaml or .yml path, else JSON. */
  worldText(path: string): Promise<string>;
  /** The exchanges as a HAR 1.2 log (with `har`), once every exchange is checked. */
  har(): Promise<object>;
  close(): Promise<void>;
}

export class ProxyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProxyError';
  }
}

/** The upstream as a url the proxy can forward to: http or https, without a query or credentials. */
export function upstreamUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ProxyError(`--upstream takes a url (https://api.example.com), not '${text}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ProxyError(`--upstream takes an http or https url, not '${url.protocol}'`);
  if (url.username || url.password) throw new ProxyError('--upstream takes no credentials in its url');
  if (url.search || url.hash) throw new ProxyError('--upstream takes no query or fragment');
  return url;
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const upstream = upstreamUrl(options.upstream);
  const base = upstream.href.replace(/\/$/, '');
  const har = options.har ? new HarLog(base, options.version ?? '') : null;
  let recorder: WorldRecorder | null = null;
  let driftConsole: DriftConsole | null = null;
  const checks: Checks = new Checks({
    upstream: base,
    seed: options.seed,
    ...(options.follow ? { follow: options.follow } : {}),
    onChecked: (line) => {
      driftConsole?.checked(line);
      options.onChecked?.(line);
    },
    onExchange: (exchange) => {
      recorder?.add(exchange);
      har?.add(exchange);
      options.onExchange?.(exchange);
    },
  });
  if (options.record) {
    const document = await checks.documentCheck();
    recorder = new WorldRecorder({
      keepValues: options.record.keepValues === true,
      createSchemas: (path) => document.createSchema(path),
      resolve: (schema) => document.index.resolve(schema),
    });
  }
  const settledRecorder = async () => {
    await checks.settled();
    if (!recorder) throw new ProxyError('the proxy was started without record');
    return recorder;
  };
  const server = createServer({ keepAliveTimeout: 5000 });
  await installForwarding(server, {
    upstream,
    bodyLimit: options.bodyLimit,
    timeoutMs: options.timeoutMs,
    onExchange: (exchange) => checks.add(exchange),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const closeForwarding = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  const report = async () => withKnown(await checks.report(), options.known ?? []);
  if (options.console) {
    try {
      driftConsole = await DriftConsole.start({ report, known: options.known ?? [] }, options.console);
    } catch (error) {
      await closeForwarding();
      throw new ProxyError(`the drift console cannot listen: ${(error as Error).message}`);
    }
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    consoleUrl: driftConsole?.url ?? null,
    report,
    world: async () => (await settledRecorder()).document(),
    worldText: async (path) => (await settledRecorder()).text(path),
    har: async () => {
      await checks.settled();
      if (!har) throw new ProxyError('the proxy was started without har');
      return har.log();
    },
    close: async () => {
      await Promise.all([closeForwarding(), driftConsole?.close()]);
    },
  };
}
