import { existsSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { createApp, DEFAULT_SEED } from '../src/app.js';
import { envCommandLine, formatDotenv, sandboxEnv } from '../src/control/env.js';
import { FixtureError } from '../src/control/fixtures.control.js';
import {
  type FailOn,
  failing,
  operationIndex,
  parseFailOn,
  publishedBodies,
  REPORT_FORMATS,
  type ReadinessReport,
  readinessReport,
  toJUnit,
  toMarkdown,
  withGuideLinks,
} from '../src/control/report/index.js';
import {
  DEFAULT_REQUEST_JOURNAL_SIZE,
  formatRequestLine,
  type RequestsFileContent,
  readRequestsFile,
  requestsFileOf,
} from '../src/control/requests/index.js';
import { keptClock } from '../src/control/sandbox.domain.js';
import { openWorldFile, seedWorld } from '../src/control/seeded-world.js';
import { EARLIEST_INSTANT, inCalendar, LATEST_INSTANT } from '../src/lib/calendar.js';
import { type CorsPolicy, corsPolicy } from '../src/lib/cors.js';
import { type DriftEntry, DriftFileError, readDriftFile } from '../src/lib/drift-file.js';
import { messages } from '../src/lib/errors.js';
import { FileLineError } from '../src/lib/file-lines.js';
import { SHARED_FILE, UnsafeFileError, writeFileAtomic } from '../src/lib/file-writer.js';
import { GUIDES_PATH, type GuideLink, guidePath } from '../src/lib/guides.js';
import { keySecretsOf } from '../src/platform/credentials.js';
import { DriftFollowing } from '../src/platform/drift.js';
import { Scrubber } from '../src/platform/scrub.js';
import { ProxyError } from '../src/proxy/index.js';
import { envBaseUrl, isLoopback, type RunningSandbox, StartError, startSandbox } from '../src/server.js';
import { COMPACT_AFTER_BYTES } from '../src/store/file-adapter.js';
import { DEFAULT_CACHE_BYTES, DEFAULT_MAX_WORLD_BYTES, StoreFileError } from '../src/store/store.js';
import type { World, WorldSize } from '../src/store/world.js';
import { guideFile } from '../src/surfaces/guides/index.js';
import { DEFAULT_MAX_WORLDS, DEFAULT_MAX_WORLDS_BYTES } from '../src/worlds.js';
import { proxyCommand } from './proxy-command.js';
import { packageVersion } from './version.js';

/** The command line: the only place that reads argv and the environment. */

const USAGE = `unified-api-sandbox: an offline, stateful sandbox of the unified integration API

Usage:
  unified-api-sandbox [serve] [options]   serve the seeded sandbox (the default command)
  unified-api-sandbox env [options]       print the sandbox's credentials and ids as dotenv lines
  unified-api-sandbox report [options]    the readiness report of a running sandbox's client
  unified-api-sandbox proxy --upstream U  a recording proxy in front of the real service: drift
                                          report, recorded world, HAR (/guides/proxy)
  unified-api-sandbox help                this text
  unified-api-sandbox --version           the version (also -v)

Run 'unified-api-sandbox <command> --help' for the options of a command. The guides: served at /guides
by a running sandbox, and in the package's docs/ folder.`;

const SERVE_USAGE = `unified-api-sandbox serve [options]

Options:
  --port N            port to listen on; 0 picks a free one          (default 4010, env SANDBOX_PORT)
  --host HOST         address to listen on                           (default 127.0.0.1, env SANDBOX_HOST)
  --seed N            seed of the world; beyond loopback, not 1      (default 1, env SANDBOX_SEED)
  --db FILE           keep the world in FILE (created when missing); (default: in memory, env SANDBOX_DB)
                      every acknowledged write is on disk before the answer
  --journal-limit B   with --db, compact the journal into the file past B bytes,
                      in the background                                (default 8388608)
  --size SIZE         default | large (100,000 consumers)            (default default)
  --cache-bytes B     bytes of generated data kept in memory; the rest is built
                      again when reached                             (default 67108864)
  --max-world-bytes B bytes clients may write into the world; past it a write
                      is refused with 413                            (default 268435456)
  --max-worlds N      worlds created over HTTP (POST /__sandbox/worlds) that
                      may live at once; past it one more is refused with 429
                                                                     (default 100)
  --max-worlds-bytes B  bytes those worlds may hold together         (default 1073741824)
  --now ISO           start a manual clock at this instant (it moves only through
                      POST /__sandbox/clock), for reproducible runs  (default: the machine's time);
                      within ${EARLIEST_INSTANT.toISOString()}..${LATEST_INSTANT.toISOString()}
  --admin-token T     token the /__sandbox control endpoints require; mandatory when
                      --host is not a loopback address               (env SANDBOX_ADMIN_TOKEN)
  --cors ORIGINS      origins browser pages may call the API from:   (env SANDBOX_CORS)
                      * (every one), origins separated by commas, or none
                      (default: * on a loopback host, none beyond)
  --public-url URL    base url to put in links and logo urls         (default: the request's origin)
  --allowed-hosts H   Host names requests may use besides loopback's, the listening
                      address and the public url's host: names separated by commas,
                      .example.com for a domain and its subdomains, * for any
                      (any other Host is refused: DNS rebinding)    (env SANDBOX_ALLOWED_HOSTS)
  --fixtures FILE     add the world declared in a JSON or YAML file  (env SANDBOX_FIXTURES)
                      (/guides/fixtures); with --db, only when the file is created
  --drift FILE        a drift file of the recording proxy (proxy --drift-out): where it
                      says production answers otherwise (a refusal's message, a page
                      size, an enum value, a null), the sandbox follows it; the other
                      entries are the proxy's alone                  (env SANDBOX_DRIFT)
  --write-env FILE    once listening, write the lines 'env' prints, with the url it
                      listens on, to FILE (a temporary file renamed over it: FILE is
                      whole when it appears); with --port 0, the way to learn the port
  --request-journal N requests the journal keeps for GET /__sandbox/requests,
                      newest first; 0 keeps none                     (default 10000)
  --connection-life M seeded: now and then a connection of the seeded crowd (never a
                      well-known consumer) sees its credentials expire or its
                      software unreachable as days pass; off: never   (default seeded)
  --log               print a line per request: method, path, status, time
                      (never with --quiet)
  --quiet             print only the url
  -h, --help          this text`;

const ENV_USAGE = `unified-api-sandbox env [options]

Prints, one per line, the dotenv values of the world that 'serve' with the same --seed/--db holds:
SANDBOX_BASE_URL, SANDBOX_ACCOUNT_ID, the sandbox, production and restricted keys, the restricted
consumer, one consumer per vertical with an active connection, SANDBOX_SYNC_ID and
SANDBOX_SYNC_CONSUMER_ID. Reading --db never writes to the file.

Options:
  --seed N        seed of the world (default 1; ignored when --db names an existing world)
  --db FILE       read the ids from this world file
  --fixtures FILE the world serve --fixtures FILE starts (ignored when --db names an existing world)
  --port N        port for SANDBOX_BASE_URL (default 4010)
  --host HOST     host for SANDBOX_BASE_URL (default 127.0.0.1)
  --public-url U  use this as SANDBOX_BASE_URL
  -h, --help      this text

Without --public-url, SANDBOX_BASE_URL is built from --host and --port: 'env' cannot know the port
of a running server (a note on stderr says so). 'serve --write-env FILE' writes these lines with the
url the server listens on.`;

const REPORT_USAGE = `unified-api-sandbox report [options]

Reads the integration readiness report of a running sandbox (GET /__sandbox/report), or of a world
file a stopped one kept: what the client did to the world, and what it will meet in production
(/guides/readiness). Prints it, and exits 1 when a finding --fail-on names is there (0 otherwise; 2
when the sandbox or the file cannot be read). Each finding links its section of the readiness guide:
with --url, the page the sandbox serves (<url>/guides/readiness#<kind>); with --db, where no server
runs, the guide's file in the installed package, from the working directory
(node_modules/unified-api-sandbox/docs/readiness.md#<kind>).

Options:
  --url URL        the sandbox (default SANDBOX_BASE_URL, else http://127.0.0.1:4010); a world's
                   base url (.../__worlds/<id>) reads that world's report
  --db FILE        instead, the world file of a sandbox that has stopped ('serve --db FILE' writes
                   its journal beside it, FILE.requests.jsonl, when it stops)
  --admin-token T  the sandbox's admin token, or a world's control token  (env SANDBOX_ADMIN_TOKEN)
  --consumer ID    only what concerns this consumer
  --connection ID  only this connection's requests
  --format F       markdown (default), json or junit
  --fail-on LIST   finding kinds separated by commas, or a severity: error (every error),
                   warning (warnings and errors), info or any (every finding)
  --output FILE    write the report to FILE instead of the standard output (a new file renamed
                   over FILE: a link at FILE is replaced, not written through)
  -h, --help       this text`;

class UsageError extends Error {}

function integer(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} takes a whole number, not '${value}'`);
  return Number(value);
}

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  seed: { type: 'string' },
  db: { type: 'string' },
  size: { type: 'string' },
  now: { type: 'string' },
  'admin-token': { type: 'string' },
  cors: { type: 'string' },
  'public-url': { type: 'string' },
  'allowed-hosts': { type: 'string' },
  'journal-limit': { type: 'string' },
  'cache-bytes': { type: 'string' },
  'max-world-bytes': { type: 'string' },
  'max-worlds': { type: 'string' },
  'max-worlds-bytes': { type: 'string' },
  fixtures: { type: 'string' },
  drift: { type: 'string' },
  // Not --env-file: node reads an --env-file of its own wherever it stands on the command line, even
  // after the script, and exits when the file does not exist yet.
  'write-env': { type: 'string' },
  'request-journal': { type: 'string' },
  'connection-life': { type: 'string' },
  url: { type: 'string' },
  consumer: { type: 'string' },
  connection: { type: 'string' },
  format: { type: 'string' },
  'fail-on': { type: 'string' },
  output: { type: 'string' },
  log: { type: 'boolean' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/** --allowed-hosts: names separated by commas, or '*'. */
function hostsOption(value: string | undefined): string[] | '*' | undefined {
  if (value === undefined) return undefined;
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return names.includes('*') ? '*' : names;
}

/** --cors: '*', origins separated by commas, or none; undefined leaves the default to the host. */
function corsOption(value: string | undefined): CorsPolicy | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === 'none') return null;
  try {
    return corsPolicy(value);
  } catch (error) {
    throw new UsageError(`--cors takes * or origins separated by commas: ${(error as Error).message}`);
  }
}

function parse(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    options: OPTIONS,
    allowPositionals: true,
    strict: true,
  });
  const env = process.env;
  const size = values.size ?? 'default';
  if (size !== 'default' && size !== 'large')
    throw new UsageError(`--size is default or large, not '${size}'`);
  const connectionLife = values['connection-life'] ?? 'seeded';
  if (connectionLife !== 'seeded' && connectionLife !== 'off')
    throw new UsageError(`--connection-life is seeded or off, not '${connectionLife}'`);
  let now: Date | undefined;
  if (values.now !== undefined) {
    now = new Date(values.now);
    if (Number.isNaN(now.getTime()))
      throw new UsageError(`--now takes an ISO date-time, not '${values.now}'`);
    if (!inCalendar(now.getTime())) throw new UsageError(`--now ${values.now}: ${messages.outsideCalendar}`);
  }
  return {
    command: positionals[0] ?? 'serve',
    extra: positionals.slice(1),
    help: values.help === true,
    version: values.version === true,
    port: integer('port', values.port ?? env.SANDBOX_PORT, 4010),
    host: values.host ?? env.SANDBOX_HOST ?? '127.0.0.1',
    seed: integer('seed', values.seed ?? env.SANDBOX_SEED, DEFAULT_SEED),
    db: values.db ?? env.SANDBOX_DB ?? null,
    size: size as WorldSize,
    now,
    adminToken: values['admin-token'] ?? env.SANDBOX_ADMIN_TOKEN ?? null,
    cors: corsOption(values.cors ?? env.SANDBOX_CORS),
    publicUrl: values['public-url'] ?? null,
    allowedHosts: hostsOption(values['allowed-hosts'] ?? env.SANDBOX_ALLOWED_HOSTS),
    journalLimit: integer('journal-limit', values['journal-limit'], COMPACT_AFTER_BYTES),
    cacheBytes: integer('cache-bytes', values['cache-bytes'], DEFAULT_CACHE_BYTES),
    maxWorldBytes: integer('max-world-bytes', values['max-world-bytes'], DEFAULT_MAX_WORLD_BYTES),
    maxWorlds: integer('max-worlds', values['max-worlds'], DEFAULT_MAX_WORLDS),
    maxWorldsBytes: integer('max-worlds-bytes', values['max-worlds-bytes'], DEFAULT_MAX_WORLDS_BYTES),
    fixtures: values.fixtures ?? env.SANDBOX_FIXTURES ?? null,
    drift: values.drift ?? env.SANDBOX_DRIFT ?? null,
    writeEnv: values['write-env'] ?? null,
    requestJournal: integer('request-journal', values['request-journal'], DEFAULT_REQUEST_JOURNAL_SIZE),
    connectionLife: connectionLife as 'seeded' | 'off',
    log: values.log === true,
    quiet: values.quiet === true,
    url: values.url ?? env.SANDBOX_BASE_URL ?? 'http://127.0.0.1:4010',
    consumer: values.consumer ?? null,
    connection: values.connection ?? null,
    format: values.format ?? 'markdown',
    failOn: values['fail-on'] ?? null,
    output: values.output ?? null,
  };
}

type Args = ReturnType<typeof parse>;

/** --drift FILE: its entries, and the line serve prints of them; a file it cannot read is a usage error. */
function driftOption(file: string): { entries: DriftEntry[]; line: string } {
  let entries: DriftEntry[];
  try {
    entries = readDriftFile(file);
  } catch (error) {
    if (error instanceof DriftFileError) throw new UsageError(`--drift ${error.message}`);
    throw error;
  }
  const following = new DriftFollowing(entries);
  return {
    entries,
    line: `Drift file ${file}: the sandbox follows ${following.followed} of its ${entries.length} entries; the proxy alone reads the other ${following.leftToProxy.length}`,
  };
}

/** The flags that make `env` print the lines of this server: its world and its url. */
function envFlags(args: Args, sandbox: RunningSandbox): string[] {
  const flags: string[] = [];
  if (args.db) flags.push('--db', args.db);
  else {
    if (sandbox.seed !== DEFAULT_SEED) flags.push('--seed', String(sandbox.seed));
    if (args.fixtures) flags.push('--fixtures', args.fixtures);
  }
  if (args.publicUrl) flags.push('--public-url', args.publicUrl);
  else {
    if (sandbox.port !== 4010) flags.push('--port', String(sandbox.port));
    if (!isLoopback(args.host) && args.host !== '0.0.0.0') flags.push('--host', args.host);
  }
  return flags;
}

function banner(sandbox: RunningSandbox, args: Args): string {
  const c = sandbox.credentials;
  const { db, adminToken } = args;
  // The `env` command as it runs where this one was started: in a clone, or from a dependency.
  const envCommand = envCommandLine(resolve(process.argv[1] ?? ''), process.cwd(), envFlags(args, sandbox));
  return [
    'unified-api-sandbox is running',
    '',
    `  API        ${sandbox.url}`,
    `  Docs       ${sandbox.url}/docs   (OpenAPI: ${sandbox.url}/openapi.json)`,
    `  Guides     ${sandbox.url}${GUIDES_PATH}   (every guide of the package, offline)`,
    `  Console    ${sandbox.url}/console${adminToken ? '   (log in with the admin token)' : ''}`,
    `  MCP        ${sandbox.url}/mcp   (an MCP token of POST /mcp-token, or OAuth)`,
    `  World      seed ${sandbox.seed}, ${db ? `file ${db}` : 'in memory'}`,
    ...(sandbox.envFile
      ? [`  Env file   ${resolve(sandbox.envFile)}   (the lines of 'env', with this url)`]
      : []),
    `  Control    ${sandbox.url}/__sandbox/clock, /__sandbox/reset${adminToken ? ' (admin token required)' : ''}`,
    '',
    '  Sandbox key (POST /token with these):',
    `    accountId     ${c.accountId}`,
    `    clientId      ${c.sandbox.clientId}`,
    `    clientSecret  ${c.sandbox.clientSecret}`,
    '',
    `  '${envCommand}' prints every key and consumer id as dotenv lines.`,
    '  Ctrl-C stops.',
  ].join('\n');
}

/**
 * How much V8 lets its old generation grow past what a full collection left alive, in percent. Left
 * to itself, a server that builds and drops datasets (first reads, the cache's evictions) grows the
 * heap to four times what is alive: 1.2 GiB of RSS for some 260 MiB alive after the first reads of
 * 1,000 large-world consumers. At 30 % it stays near 500 MiB (docs/benchmarks.md). Only the server's
 * process is tuned: a library loaded into someone's tests leaves their heap alone. A NODE_OPTIONS or
 * command line that sets the flag wins.
 */
const HEAP_GROWING_PERCENT = 30;

function tuneHeap(): void {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) =>
    /heap[-_]growing[-_]percent/.test(arg),
  );
  if (!given) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

async function serveCommand(args: Args) {
  if (args.help) return console.log(SERVE_USAGE);
  tuneHeap();
  // A bad drift file stops serve before it listens, with the reader's message.
  const drift = args.drift ? driftOption(args.drift) : undefined;
  const sandbox = await startSandbox({
    seed: args.seed,
    port: args.port,
    host: args.host,
    db: args.db,
    size: args.size,
    // None given: the machine's time, or the clock the world file kept.
    ...(args.now !== undefined ? { clock: args.now } : {}),
    adminToken: args.adminToken,
    ...(args.cors !== undefined ? { cors: args.cors } : {}),
    publicUrl: args.publicUrl,
    ...(args.allowedHosts !== undefined ? { allowedHosts: args.allowedHosts } : {}),
    journalLimit: args.journalLimit,
    cacheBytes: args.cacheBytes,
    maxWorldBytes: args.maxWorldBytes,
    maxWorlds: args.maxWorlds,
    maxWorldsBytes: args.maxWorldsBytes,
    ...(args.fixtures ? { fixtures: args.fixtures } : {}),
    envFile: args.writeEnv,
    requestJournalSize: args.requestJournal,
    connectionLife: args.connectionLife,
    ...(drift ? { drift: drift.entries } : {}),
    // --quiet prints the url alone, whatever else is asked.
    ...(args.log && !args.quiet ? { onRequest: (summary) => console.log(formatRequestLine(summary)) } : {}),
  });
  if (drift && !args.quiet) console.log(drift.line);
  console.log(args.quiet ? sandbox.url : banner(sandbox, args));
  process.once('SIGINT', () => stopServing(sandbox, 'SIGINT'));
  process.once('SIGTERM', () => stopServing(sandbox, 'SIGTERM'));
}

/** How long a stop waits for the sandbox to close before the process ends anyway. */
const STOP_GRACE_MS = 3000;

/**
 * Stops serving on a signal: closes the sandbox (its port, its worlds, the journal beside its world
 * file) and exits 0. Long work under way runs in slices, so the close starts at once; whatever it
 * still waits for past STOP_GRACE_MS (a large world's snapshot being rewritten), the process ends
 * then, and at once on a second signal: every acknowledged write is on disk already.
 */
function stopServing(sandbox: RunningSandbox, signal: NodeJS.Signals): void {
  const now = (reason: string) => {
    console.error(`unified-api-sandbox: ${reason}: stopped before the sandbox finished closing`);
    process.exit(0);
  };
  setTimeout(() => now(`not closed ${STOP_GRACE_MS / 1000} s after ${signal}`), STOP_GRACE_MS).unref();
  for (const again of ['SIGINT', 'SIGTERM'] as const) process.once(again, () => now(`${again} again`));
  sandbox.close().then(
    () => process.exit(0),
    (error: unknown) => now(`the close failed (${(error as Error).message})`),
  );
}

async function envCommand(args: Args) {
  if (args.help) return console.log(ENV_USAGE);
  let world: World;
  if (args.db && existsSync(args.db)) {
    world = (await openWorldFile(args.db, () => seedWorld(args.seed, 'default'), { readOnly: true })).world;
  } else if (args.fixtures) {
    // The world serve would start: the seeded one with the fixtures applied, by the same code, and
    // refused as serve refuses it (exit code 2 and the rule, not a stack).
    try {
      world = createApp({ seed: args.seed, fixtures: args.fixtures, requestJournalSize: 0 }).services.store
        .world;
    } catch (error) {
      throw error instanceof FixtureError ? new StartError(`Fixtures refused: ${error.message}`) : error;
    }
  } else {
    world = seedWorld(args.seed, 'default');
  }
  const url = envBaseUrl(args.host, args.port, args.publicUrl);
  if (!args.publicUrl) {
    // On stderr: stdout stays a dotenv file that $GITHUB_ENV or a parser takes as it is.
    console.error(
      `unified-api-sandbox env: SANDBOX_BASE_URL=${url} is built from --host and --port (or their defaults), not read from a running server, whose port env cannot know. Give --public-url, or start the server with 'serve --write-env FILE', which writes these lines with the url it listens on.`,
    );
  }
  console.log(formatDotenv(sandboxEnv(world, url)));
}

async function reportOfServer(args: Args): Promise<ReadinessReport> {
  const url = new URL(`${args.url.replace(/\/+$/, '')}/__sandbox/report`);
  if (args.consumer) url.searchParams.set('consumer_id', args.consumer);
  if (args.connection) url.searchParams.set('connection_id', args.connection);
  try {
    const res = await fetch(url, {
      headers: args.adminToken ? { authorization: `Bearer ${args.adminToken}` } : {},
    });
    const text = await res.text();
    if (!res.ok)
      throw new StartError(`${url.origin} answered ${res.status} to GET /__sandbox/report: ${text}`);
    return JSON.parse(text) as ReadinessReport;
  } catch (error) {
    if (error instanceof StartError) throw error;
    throw new StartError(`cannot read the report at ${url.href}: ${(error as Error).message}`);
  }
}

/** The report of a stopped sandbox: its world file and the journal it wrote beside it. */
async function reportOfWorldFile(args: Args): Promise<ReadinessReport> {
  const db = args.db as string;
  if (!existsSync(db)) throw new StartError(`no world file at ${db}`);
  const store = await openWorldFile(db, () => seedWorld(DEFAULT_SEED, 'default'), { readOnly: true });
  // Read back, the file is input like any other: checked line by line, and scrubbed again.
  const scrubber = new Scrubber({ known: () => keySecretsOf(store.world.meta) });
  let journal: RequestsFileContent;
  try {
    journal = await readRequestsFile(db, scrubber);
  } catch (error) {
    if (error instanceof FileLineError) throw new StartError(error.message);
    throw new StartError(
      `cannot read ${requestsFileOf(db)}: ${(error as Error).message}. 'serve --db ${db}' writes it when it stops (SIGINT or SIGTERM); a sandbox killed otherwise leaves none.`,
    );
  }
  // The served documents, the catalogue and the verticals, as the app of that world has them.
  const { services } = createApp({ seed: store.world.meta.seed, requestJournalSize: 0, maxWorlds: 0 });
  const documents = services.servedDocuments?.() ?? { service: '{}', sandbox: '{}' };
  const last = journal.records.at(-1)?.at;
  const report = await readinessReport({
    records: journal.records,
    controlCalls: journal.controlCalls,
    operations: operationIndex(
      JSON.parse(documents.service),
      JSON.parse(documents.sandbox),
      publishedBodies(),
    ),
    areas: new Set(services.verticals.map((module) => module.key)),
    world: store.world,
    catalogue: services.catalogue,
    now: keptClock(store.world)?.now() ?? new Date(last ?? Date.now()),
    consumerId: args.consumer ?? undefined,
    connectionId: args.connection ?? undefined,
    scrubber,
  });
  return withGuideLinks(report, guideFileLink);
}

/**
 * A guide as the report of a stopped sandbox links it: no server serves it then, so its file in the
 * installed package, from the working directory (node_modules/unified-api-sandbox/docs/readiness.md;
 * docs/readiness.md in a clone), which a Markdown viewer opens at the anchor; the served path when
 * the package holds no such file.
 */
const guideFileLink: GuideLink = (guide, anchor) => {
  const file = guideFile(guide);
  if (file === undefined) return guidePath(guide, anchor);
  return `${relative(process.cwd(), file).split(sep).join('/')}${anchor ? `#${anchor}` : ''}`;
};

async function reportCommand(args: Args) {
  if (args.help) return console.log(REPORT_USAGE);
  if (!(REPORT_FORMATS as readonly string[]).includes(args.format))
    throw new UsageError(`--format is ${REPORT_FORMATS.join(', ')}, not '${args.format}'`);
  let failOn: FailOn;
  try {
    failOn = parseFailOn(args.failOn ?? undefined);
  } catch (error) {
    throw new UsageError(
      `--fail-on: ${(error as Error).message}. ${(error as { detail?: string }).detail ?? ''}`,
    );
  }
  const report = args.db ? await reportOfWorldFile(args) : await reportOfServer(args);
  const text =
    args.format === 'json'
      ? `${JSON.stringify(report, null, 2)}\n`
      : args.format === 'junit'
        ? toJUnit(report, failOn)
        : toMarkdown(report);
  // A new file renamed over FILE (lib/file-writer.ts): a link at FILE is replaced, never written through.
  if (args.output) {
    try {
      await writeFileAtomic(args.output, text, SHARED_FILE);
    } catch (error) {
      throw new StartError(`cannot write ${args.output}: ${(error as Error).message}`);
    }
  } else process.stdout.write(text);
  const failed = failing(report, failOn);
  if (failed.length > 0) {
    console.error(
      `unified-api-sandbox report: ${failed.length} finding${failed.length === 1 ? '' : 's'} fail the run: ${[...new Set(failed.map((f) => f.kind))].join(', ')}`,
    );
    process.exitCode = 1;
  }
}

async function main(argv: string[]) {
  // The proxy's options are its own (proxy-command.ts).
  if (argv[0] === 'proxy') return proxyCommand(argv.slice(1));
  const args = parse(argv);
  if (args.version) return console.log(packageVersion());
  switch (args.command) {
    case 'serve':
      return serveCommand(args);
    case 'env':
      return envCommand(args);
    case 'report':
      return reportCommand(args);
    case 'help':
      return console.log(USAGE);
    default:
      throw new UsageError(`Unknown command '${args.command}'. ${USAGE}`);
  }
}

/** Runs the command line on its arguments; a refusal or failure is printed and ends the process. */
export function runCli(argv: string[]): void {
  main(argv).catch((error: unknown) => {
    const known =
      error instanceof UsageError ||
      error instanceof StartError ||
      error instanceof ProxyError ||
      error instanceof StoreFileError ||
      error instanceof UnsafeFileError ||
      error instanceof FileLineError;
    const isParseError = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    console.error(`unified-api-sandbox: ${(error as Error).message}`);
    if (isParseError) console.error("Run 'unified-api-sandbox --help' for the options.");
    if (!known && !isParseError) console.error(error);
    process.exit(known || isParseError ? 2 : 1);
  });
}
