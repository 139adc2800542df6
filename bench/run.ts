import { type ChildProcess, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { seedDirectory } from '../src/control/seeded-world.js';
import { INVOICE_STATE } from '../src/modules/datastores/datastores.seed.js';
import { seedCredentials } from '../src/platform/credentials.js';
import { cpuSeconds, type Row, spawnListening } from './proc.js';
import { worldsFromPython } from './python-worlds.js';
import { journalReads } from './reads.js';

/**
 * npm run bench [-- --quick] [--no-write] [--no-build]
 * npm run bench:quick            (the same as `--quick --no-write`: every scenario for a second)
 * npm run bench -- --only=<group>  (printed, never written: large-file, datalab, fresh, pytest, durable, read)
 *
 * Starts, one at a time on loopback, a bare node:http server (the machine's ceiling), a bare Hono app
 * (the framework's) and the built sandbox, drives each scenario with autocannon (50 connections),
 * and prints and writes a table of req/s, p50, p99, the server's peak RSS and the ratio to the bare
 * server measured in the same run; the reads that compare them also say the server's CPU a request.
 *
 * Every run then checks itself, so that the harness never rots: each expected scenario produced a row,
 * and each row that measures a speed has more than 0 req/s. A failed check exits with code 1, names
 * what is missing, and writes nothing. No speed is asserted: speeds are ratios within one run.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const args = new Set(process.argv.slice(2));
const QUICK = args.has('--quick');
const DURATION = QUICK ? 1 : 10;
const CONNECTIONS = 50;
const SEED = 1;

interface Server {
  child: ChildProcess;
  url: string;
  startMs: number;
}

function peakRssMiB(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

/**
 * Starts a server and waits for it to be ready: its first 2xx answer of `ready` (a path; null: `/`),
 * or, when `ready` is a function, the first time it says so. `startMs` runs from the spawn to then.
 */
async function start(
  command: string[],
  ready: string | null | ((url: string) => Promise<boolean>),
): Promise<Server> {
  const began = performance.now();
  const { child, url } = await spawnListening(command, ROOT);
  // Cold start ends at the first 2xx answer.
  for (;;) {
    if (typeof ready === 'function') {
      try {
        if (await ready(url)) break;
      } catch (error) {
        child.kill('SIGKILL');
        throw error;
      }
      continue;
    }
    try {
      const res = await fetch(`${url}${ready ?? '/'}`);
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      // not yet
    }
  }
  return { child, url, startMs: Math.round(performance.now() - began) };
}

/** Stops a server: SIGKILL by default; SIGTERM lets it close its world file as a person's Ctrl-C would. */
const stop = (server: Server, signal: NodeJS.Signals = 'SIGKILL') =>
  new Promise<void>((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve();
    server.child.once('exit', () => resolve());
    server.child.kill(signal);
  });

async function drive(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    path: string;
    /** Default: CONNECTIONS; 1 measures what one person at a browser waits. */
    connections?: number;
    /**
     * The server's process: its CPU time over the measure, divided by the requests answered, is
     * returned as `cpuUs`. On two cores shared with autocannon, the throughput follows it, and it
     * moves less than the throughput with the machine's other load.
     */
    pid?: number;
  },
): Promise<{ rps: number; p50: number; p99: number; errors: number; cpuUs: number | null }> {
  const connections = options.connections ?? CONNECTIONS;
  const request = {
    url: `${url}${options.path}`,
    connections,
    method: (options.method ?? 'GET') as 'GET',
    headers: options.headers,
    body: options.body,
  };
  // Two seconds first, not counted, so that the measure is of warm code (the JIT has compiled the
  // hot path) for every server alike.
  if (!QUICK) await autocannon({ ...request, duration: 2 });
  const before = cpuSeconds(options.pid);
  const result = await autocannon({ ...request, duration: DURATION });
  const after = cpuSeconds(options.pid);
  const errors = result.errors + result.non2xx + result.timeouts;
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors,
    cpuUs:
      before === null || after === null || result.requests.total === 0
        ? null
        : Math.round((((after - before) * 1e6) / result.requests.total) * 10) / 10,
  };
}

/** The server's CPU a request, for a row's note. */
const cpuNote = (r: { cpuUs: number | null }) =>
  r.cpuUs === null ? '' : `server CPU ${r.cpuUs} µs a request`;

async function token(url: string): Promise<string> {
  const creds = seedCredentials(SEED);
  const res = await fetch(`${url}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accountId: creds.accountId, ...creds.sandbox }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

const sandboxCommand = (...extra: string[]) => [
  'dist/cli.mjs',
  'serve',
  '--port',
  '0',
  '--quiet',
  '--seed',
  String(SEED),
  ...extra,
];

/** The groups that run alone with --only=<name>: a change measured without the whole run. */
const ALONE: Record<string, (rows: Row[]) => Promise<void> | void> = {
  'large-file': (rows) => largeWorldOnFile(rows),
  datalab: (rows) => datalabOverLargeWorld(rows),
  fresh: (rows) => freshWorlds(rows),
  pytest: (rows) => worldsFromPython(rows, ROOT, QUICK ? 20 : 100),
  read: (rows) => journalReads(rows, { start, stop, drive, token, sandboxCommand, peakRssMiB, cpuNote }),
  durable: (rows) =>
    durableLargeWorld(
      rows,
      (scenario, world, r, pid) =>
        rows.push({ scenario, world, rps: r.rps, p50: r.p50, p99: r.p99, rssMiB: peakRssMiB(pid), note: '' }),
      { 'content-type': 'application/json' },
    ),
};

async function main() {
  if (!args.has('--no-build')) {
    const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  const only = [...args].find((a) => a.startsWith('--only='))?.slice('--only='.length);
  if (only !== undefined) {
    const group = ALONE[only];
    if (!group) throw new Error(`--only takes one of: ${Object.keys(ALONE).join(', ')}`);
    const rows: Row[] = [];
    await group(rows);
    for (const row of rows)
      console.log(
        `${row.scenario} | ${row.world} | p50 ${row.p50 ?? ''} | p99 ${row.p99 ?? ''} | ${row.rssMiB} MiB | ${row.note}`,
      );
    return;
  }
  const rows: Row[] = [];
  const creds = seedCredentials(SEED);
  const ids = seedDirectory(SEED);
  const tokenBody = JSON.stringify({ accountId: creds.accountId, ...creds.sandbox });
  const json = { 'content-type': 'application/json' };

  // 1. The ceiling.
  const bare = await start(['bench/bare-server.mjs'], null);
  const ceiling = await drive(bare.url, { path: '/', pid: bare.child.pid });
  rows.push({
    scenario: 'bare node:http, fixed 200-byte JSON',
    world: '-',
    ...ceiling,
    rssMiB: peakRssMiB(bare.child.pid),
    note: cpuNote(ceiling),
  });
  await stop(bare);
  // The framework's own ceiling: a bare Hono app on @hono/node-server, one route with a parameter.
  const hono = await start(['bench/hono-server.mjs'], '/consumers/bench');
  const framework = await drive(hono.url, { path: '/consumers/bench', pid: hono.child.pid });
  rows.push({
    scenario: 'bare Hono app on @hono/node-server, same JSON',
    world: '-',
    ...framework,
    rssMiB: peakRssMiB(hono.child.pid),
    note: cpuNote(framework),
  });
  await stop(hono);
  // The floor of the sandbox's shape: the same router, as many routes, the same steps, none doing work.
  const shape = await start(['bench/shape-server.mjs', String(SHAPE_ROUTES)], '/r1/x/x1');
  const floor = await drive(shape.url, {
    path: '/consumers/bench',
    headers: { authorization: 'Bearer bench' },
    pid: shape.child.pid,
  });
  rows.push({
    scenario: SHAPE_SCENARIO,
    world: '-',
    ...floor,
    rssMiB: peakRssMiB(shape.child.pid),
    note: [
      `${SHAPE_ROUTES} routes in a TrieRouter, three middlewares before every route, a token check and a zod path parameter, doing nothing`,
      cpuNote(floor),
    ].join('; '),
  });
  await stop(shape);

  // 1b. Fresh worlds: the library in a process of its own, as a test suite creates one per test.
  freshWorlds(rows);
  // 1c. Worlds over HTTP, as a suite in another language creates one per test.
  worldsOverHttp(rows);
  await worldsFromPython(rows, ROOT, QUICK ? 20 : 100);
  readinessReport(rows);

  // 2. The sandbox, default world, in memory.
  const mem = await start(sandboxCommand(), '/__sandbox/clock');
  rows.push({
    scenario: 'cold start to first 2xx',
    world: 'default',
    rps: null,
    p50: null,
    p99: null,
    rssMiB: peakRssMiB(mem.child.pid),
    note: `${mem.startMs} ms`,
  });
  const bearer = await token(mem.url);
  const auth = { authorization: `Bearer ${bearer}` };
  const add = (
    scenario: string,
    world: string,
    r: Awaited<ReturnType<typeof drive>>,
    pid: number | undefined,
  ) =>
    rows.push({
      scenario,
      world,
      rps: r.rps,
      p50: r.p50,
      p99: r.p99,
      rssMiB: peakRssMiB(pid),
      note: r.errors ? `${r.errors} non-2xx/errors` : '',
    });

  const consumer = ids.verticalConsumers.ACCOUNTING;
  const read = await drive(mem.url, { path: `/consumers/${consumer}`, headers: auth, pid: mem.child.pid });
  add('GET /consumers/{id} (authenticated)', 'default', read, mem.child.pid);
  (rows.at(-1) as Row).note = [(rows.at(-1) as Row).note, cpuNote(read)].filter(Boolean).join('; ');
  const doc = (await (await fetch(`${mem.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
  const pagedPath = '/consumers/{consumer_id}/accounting/clients';
  if (doc.paths[pagedPath]) {
    add(
      'GET accounting clients (paged, size 50)',
      'default',
      await drive(mem.url, {
        path: `/consumers/${consumer}/accounting/clients?page=1&size=50`,
        headers: auth,
      }),
      mem.child.pid,
    );
  } else {
    rows.push({
      scenario: 'GET accounting clients (paged)',
      world: 'default',
      rps: null,
      p50: null,
      p99: null,
      rssMiB: 0,
      note: 'not served yet',
    });
  }
  await consolePages(mem.url, 'default', consumer, rows);
  // Reads first, so that their peak RSS is that of reads; then the scenarios that allocate.
  add(
    'POST /token',
    'default',
    await drive(mem.url, { method: 'POST', path: '/token', headers: json, body: tokenBody }),
    mem.child.pid,
  );
  add(
    'POST /consumers (in memory)',
    'default',
    await drive(mem.url, {
      method: 'POST',
      path: '/consumers',
      headers: { ...json, ...auth },
      body: JSON.stringify({ name: 'Bench consumer' }),
    }),
    mem.child.pid,
  );
  await stop(mem);

  // 3. A world of 1,000 consumers for search.
  const search = await start(sandboxCommand(), '/__sandbox/clock');
  const searchAuth = { authorization: `Bearer ${await token(search.url)}` };
  for (let i = 0; i < 1000; i += 50) {
    await Promise.all(
      Array.from({ length: 50 }, (_, j) =>
        fetch(`${search.url}/consumers`, {
          method: 'POST',
          headers: { ...json, ...searchAuth },
          body: JSON.stringify({ name: `Search target ${i + j}` }),
        }).then((r) => r.arrayBuffer()),
      ),
    );
  }
  add(
    'GET /consumers?search= (1,000 consumers)',
    '1,000',
    await drive(search.url, { path: '/consumers?search=target%2099', headers: searchAuth }),
    search.child.pid,
  );
  await stop(search);

  // 4. Durable writes.
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
  const durable = await start(sandboxCommand('--db', join(dir, 'world.json')), '/__sandbox/clock');
  const durableAuth = { authorization: `Bearer ${await token(durable.url)}` };
  add(
    'POST /consumers with --db (durable)',
    'default',
    await drive(durable.url, {
      method: 'POST',
      path: '/consumers',
      headers: { ...json, ...durableAuth },
      body: JSON.stringify({ name: 'Durable bench consumer' }),
    }),
    durable.child.pid,
  );
  await stop(durable);
  rmSync(dir, { recursive: true, force: true });

  // 4b. Durable writes in a world that holds 100,000 datastore rows: the cost of a write follows
  // what it changes, not the size of the world, and each write's journal line stays small.
  await durableLargeWorld(rows, add, json);

  // 5. The large world.
  const large = await start(sandboxCommand('--size', 'large'), '/__sandbox/clock');
  rows.push({
    scenario: 'cold start to first 2xx',
    world: 'large (100,000)',
    rps: null,
    p50: null,
    p99: null,
    rssMiB: peakRssMiB(large.child.pid),
    note: `${large.startMs} ms`,
  });
  const largeAuth = { authorization: `Bearer ${await token(large.url)}` };
  add(
    'GET /consumers/{id} (authenticated)',
    'large (100,000)',
    await drive(large.url, { path: `/consumers/${consumer}`, headers: largeAuth }),
    large.child.pid,
  );
  add(
    'GET /consumers?search=',
    'large (100,000)',
    await drive(large.url, { path: '/consumers?search=zzzz-no-match', headers: largeAuth }),
    large.child.pid,
  );
  await consolePages(large.url, 'large (100,000)', consumer, rows);
  await stop(large);

  // 6. The large world kept in a file: first reads, the file's growth, a restart.
  await largeWorldOnFile(rows);

  // 7. A Datalab query over every POS connection of the large world, and the reads meanwhile.
  await datalabOverLargeWorld(rows);

  const table = render(rows, ceiling.rps);
  console.log(table);
  const problems = problemsOf(rows);
  if (problems.length) {
    console.error(`\nThe benchmark run is incomplete:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exitCode = 1;
    return;
  }
  console.log(`\nEvery scenario ran: ${rows.length} rows, each measured speed above 0 req/s.`);
  if (!args.has('--no-write')) {
    const header = [
      `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version};`,
      `autocannon, ${CONNECTIONS} connections, ${DURATION} s per scenario${QUICK ? ' (quick mode)' : ''}.`,
    ].join(' ');
    writeResults(join(ROOT, 'docs', 'benchmarks.md'), `${header}\n\n${table}`);
  }
}

/** What a console page may take on the default world, one person at a browser (p99, ms). */
const CONSOLE_PAGE_TARGET_MS = 100;

const CONSOLE_PAGES = [
  'console: overview',
  'console: consumers, searched',
  'console: a consumer with its vertical data',
  'console: requests',
] as const;

/**
 * The console's pages, one connection at a time (a person at a browser, not a crowd): the p99 is the
 * wait for one page. Each page is opened once first, so that the datasets it shows are built.
 */
async function consolePages(url: string, world: string, consumer: string | undefined, rows: Row[]) {
  const paths: Record<(typeof CONSOLE_PAGES)[number], string> = {
    'console: overview': '/console',
    'console: consumers, searched': '/console/consumers?search=gro',
    'console: a consumer with its vertical data': `/console/consumers/${consumer}`,
    'console: requests': '/console/requests',
  };
  for (const scenario of CONSOLE_PAGES) {
    const path = paths[scenario];
    await (await fetch(`${url}${path}`)).arrayBuffer();
    const r = await drive(url, { path, connections: 1 });
    const target =
      world === 'default'
        ? `target p99 < ${CONSOLE_PAGE_TARGET_MS} ms: ${r.p99 < CONSOLE_PAGE_TARGET_MS ? 'met' : 'missed'}`
        : '';
    const errors = r.errors ? `${r.errors} non-2xx/errors` : '';
    rows.push({
      scenario,
      world,
      rps: r.rps,
      p50: r.p50,
      p99: r.p99,
      rssMiB: 0,
      note: [errors, target, '1 connection'].filter(Boolean).join('; '),
    });
  }
}

/** The rows of the fresh worlds, and their targets in milliseconds. */
const FRESH = {
  first: 'fresh process: import + createApp + first authenticated answer',
  createApp: 'a further createApp (median)',
  reset: 'POST /__sandbox/reset (median)',
  openapi: 'first /openapi.json of a process',
  openapiExamples: "an app's first /openapi.json, with the examples of its world",
  firstDataset: "first read of a connection's dataset (POS orders) on a new app",
  year: "the clock moved a year forward, every vertical's data in use and read again",
  sinceYesterday: "yesterday's POS orders of one connection, first read after that move",
} as const;

/**
 * Runs bench/fresh-world.mjs on the built package entry, each time in a new node process, and adds
 * the medians of the runs with their targets. What it measures starts at the import, inside the
 * process: node's own start (~40 ms here) is not counted.
 */
function freshWorlds(rows: Row[]): void {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    exports: { '.': { default: string } };
  };
  const entry = join(ROOT, pkg.exports['.'].default);
  const runs = QUICK ? 3 : 9;
  // The code V8 compiled for the package is kept for the next process (bin/core-loader.ts): in a
  // folder of this run, written by a first process not counted; a few more run without it.
  const codeCache = mkdtempSync(join(tmpdir(), 'bench-code-cache-'));
  const fresh = (setting: string) => {
    const out = spawnSync(process.execPath, ['bench/fresh-world.mjs', entry], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, UNIFIED_API_SANDBOX_CODE_CACHE: setting },
    });
    if (out.status !== 0) throw new Error(`bench/fresh-world.mjs failed: ${out.stderr}`);
    return JSON.parse(out.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, number>;
  };
  fresh(codeCache);
  const results: Record<string, number>[] = [];
  for (let i = 0; i < runs; i++) results.push(fresh(codeCache));
  const uncached = [fresh('off'), fresh('off'), fresh('off')];
  rmSync(codeCache, { recursive: true, force: true });
  const medianOf = (of: Record<string, number>[], key: string) => {
    const values = of.map((r) => r[key] ?? Number.NaN).sort((a, b) => a - b);
    return values[Math.floor(values.length / 2)] as number;
  };
  const median = (key: string) => medianOf(results, key);
  const row = (scenario: string, ms: number, target: number, detail = '') =>
    rows.push({
      scenario,
      world: 'default',
      rps: null,
      p50: null,
      p99: null,
      rssMiB: median('rssMiB'),
      note: `${ms} ms${detail} (target < ${target} ms: ${ms < target ? 'met' : '**not met**'})`,
    });
  const of = `, median of ${runs} processes`;
  row(
    FRESH.first,
    median('total'),
    150,
    ` (import ${median('import')}, createApp ${median('createApp')}, first answers ${median('firstAnswer')})${of}; without the code cache (a build's first process) ${medianOf(uncached, 'total')} ms (import ${medianOf(uncached, 'import')}), median of 3`,
  );
  row(FRESH.createApp, median('furtherCreateApp'), 3, of);
  row(FRESH.reset, median('reset'), 5, of);
  row(FRESH.openapi, median('openapi'), 50, of);
  // Reading the examples builds the datasets a first read of each vertical's consumer would build.
  row(FRESH.openapiExamples, median('openapiExamples'), 1000, of);
  // The examples built the showcase datasets in the process: a new app shares them; the detail gives a
  // dataset no app of the process built before (generated at the read, the code warm).
  row(
    FRESH.firstDataset,
    median('firstPosOrders'),
    30,
    ` (the invoicing consumer's invoices ${median('firstInvoices')} ms; the POS orders read again, from the cache, ${median('againPosOrders')} ms; a POS dataset no app of the process built before, generated at the read, ${median('builtPosOrders')} ms)${of}`,
  );
  // The living world: the move itself (its background work included), then the nightly sync's read,
  // which builds the dataset for the new day (a year of days after its history).
  row(FRESH.year, median('yearMs'), 2000, of);
  row(
    FRESH.sinceYesterday,
    median('sinceYesterday'),
    20,
    ` (read again, from the cache: ${median('sinceYesterdayAgain')} ms)${of}`,
  );
}

/** The rows of the worlds created over HTTP (POST /__sandbox/worlds). */
const WORLDS = {
  create: 'create a world over HTTP + its first authenticated answer',
  live: '100 live worlds, each having answered',
} as const;

/** Runs bench/worlds.mjs on the built package entry in a node process of its own. */
function worldsOverHttp(rows: Row[]): void {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    exports: { '.': { default: string } };
  };
  const out = spawnSync(
    process.execPath,
    ['--expose-gc', 'bench/worlds.mjs', join(ROOT, pkg.exports['.'].default), '100'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (out.status !== 0) throw new Error(`bench/worlds.mjs failed: ${out.stderr}`);
  const r = JSON.parse(out.stdout.trim().split('\n').at(-1) ?? '{}') as {
    p50: number;
    p99: number;
    rssBeforeMiB: number;
    rssAfterMiB: number;
    live: number;
  };
  rows.push({
    scenario: WORLDS.create,
    world: 'created',
    rps: null,
    p50: r.p50,
    p99: r.p99,
    rssMiB: r.rssAfterMiB,
    note: `POST /__sandbox/worlds, POST /token with its keys, GET /consumers; 100 in a row (target p50 < 20 ms: ${r.p50 < 20 ? 'met' : '**not met**'})`,
  });
  rows.push({
    scenario: WORLDS.live,
    world: 'created',
    rps: null,
    p50: null,
    p99: null,
    rssMiB: r.rssAfterMiB,
    note: `${r.live} live: RSS ${r.rssBeforeMiB} -> ${r.rssAfterMiB} MiB (+${r.rssAfterMiB - r.rssBeforeMiB} MiB, ${Math.round(((r.rssAfterMiB - r.rssBeforeMiB) / Math.max(1, r.live)) * 100) / 100} MiB a world)`,
  });
}

/** Runs bench/report.mjs on the built package entry: the readiness report over a full journal. */
function readinessReport(rows: Row[]): void {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    exports: { '.': { default: string } };
  };
  const out = spawnSync(
    process.execPath,
    ['bench/report.mjs', join(ROOT, pkg.exports['.'].default), '10000'],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  if (out.status !== 0) throw new Error(`bench/report.mjs failed: ${out.stderr}`);
  const r = JSON.parse(out.stdout.trim().split('\n').at(-1) ?? '{}') as {
    requests: number;
    p50: number;
    max: number;
    stall: number;
    findings: number;
    rssMiB: number;
  };
  rows.push({
    scenario: 'GET /__sandbox/report over a full journal',
    world: 'default',
    rps: null,
    p50: r.p50,
    p99: r.max,
    rssMiB: r.rssMiB,
    note: `${r.requests} requests of a sloppy client, ${r.findings} findings; the event loop held at most ${r.stall} ms while it was made (slowest of 5 in the p99 column)`,
  });
}

/** The rows of the derived world: the world file keeps what clients did, the datasets are a cache. */
const DERIVED = {
  reads: 'first reads of vertical lists, one per connection (--db)',
  growth: 'world file growth: those reads, then one write',
  restart: 'restart on that world file: spawn to first authenticated 200',
  datalab: 'POST /datalab/query-db pos_orders.count, every POS connection',
  duringDatalab: 'GET /consumers/{id} while that Datalab query runs',
} as const;

/** The list read of each vertical's connection, and the operation the integration must support. */
const VERTICAL_LISTS: Record<string, { label: string; path: string; operation: string }> = {
  Accounting: {
    label: 'accounting journals',
    path: 'accounting/journals',
    operation: 'accounting_get_journals',
  },
  'Point of Sale': { label: 'POS orders', path: 'pos/orders', operation: 'pos_get_orders' },
  eCommerce: { label: 'commerce orders', path: 'commerce/orders', operation: 'ecommerce_get_orders' },
  Invoicing: { label: 'invoices', path: 'invoicing/invoices', operation: 'invoicing_get_invoices' },
  Banking: { label: 'bank accounts', path: 'banking/accounts', operation: 'banking_get_accounts' },
  Payment: { label: 'payments', path: 'payment/payments', operation: 'payment_get_payments' },
  'Property Management System': {
    label: 'PMS locations',
    path: 'pms/locations',
    operation: 'pms_get_locations',
  },
};

/** The durable writes' targets: a write's p99 at this many connections, and its journal line. */
const DURABLE_WRITE_CONNECTIONS = 10;
const DURABLE_WRITE_P99_MS = 20;
const SHAPE_SCENARIO = "Hono app of the sandbox's shape, each step empty, same JSON";
/** About as many router entries as the sandbox registers (its routes and middlewares). */
const SHAPE_ROUTES = 530;
const JOURNAL_LINE_TARGET_BYTES = 8 * 1024;

/**
 * The scenarios every run has a row for. The paged accounting read is left out: where the operation
 * is not served, its row says so instead of measuring.
 */
const EXPECTED_SCENARIOS = [
  'bare node:http, fixed 200-byte JSON',
  'bare Hono app on @hono/node-server, same JSON',
  SHAPE_SCENARIO,
  FRESH.first,
  FRESH.createApp,
  FRESH.reset,
  FRESH.openapi,
  FRESH.openapiExamples,
  FRESH.firstDataset,
  FRESH.year,
  FRESH.sinceYesterday,
  WORLDS.create,
  WORLDS.live,
  'cold start to first 2xx',
  'POST /token',
  'GET /consumers/{id} (authenticated)',
  'POST /consumers (in memory)',
  'GET /consumers?search= (1,000 consumers)',
  'POST /consumers with --db (durable)',
  'GET /consumers?search=',
  'POST one datastore row, durable',
  `POST one datastore row, durable (${DURABLE_WRITE_CONNECTIONS} connections)`,
  'POST invoicing contact, durable',
  `POST invoicing contact, durable (${DURABLE_WRITE_CONNECTIONS} connections)`,
  'largest journal line of one write',
  ...CONSOLE_PAGES,
  ...Object.values(DERIVED),
];

/**
 * What is wrong with a run: an expected scenario without a row, a row that measures a speed with
 * none (0 req/s, or no number), or a row that measures something else (a cold start, the size of a
 * journal line; they have no req/s) with its measure missing from the note.
 */
function problemsOf(rows: Row[]): string[] {
  const problems = EXPECTED_SCENARIOS.filter((scenario) => !rows.some((r) => r.scenario === scenario)).map(
    (scenario) => `no row for the scenario "${scenario}"`,
  );
  for (const r of rows) {
    const where = `"${r.scenario}"${r.world === '-' ? '' : ` (${r.world} world)`}`;
    if (r.rps === null) {
      if (!r.note) problems.push(`${where}: neither a speed nor a measure in its note`);
    } else if (!(r.rps > 0)) {
      problems.push(`${where}: ${r.rps} req/s${r.note ? ` (${r.note})` : ''}`);
    }
  }
  return problems;
}

/**
 * The largest line of a journal file written after `offset` by the writes of a scenario (lines that
 * change `collection`; background work, such as executions the clock settles, writes lines of its
 * own). A compaction that rotated the journal meanwhile leaves a shorter file: all of it is new.
 */
function largestLine(file: string, offset: number, collection: string): number {
  if (!existsSync(file)) return 0;
  const bytes = readFileSync(file);
  const text = bytes.subarray(bytes.length >= offset ? offset : 0).toString('utf8');
  const lines = text.split('\n').filter((line) => line.includes(`{"p":["${collection}"`));
  return Math.max(0, ...lines.map((line) => Buffer.byteLength(line)));
}

const sizeOf = (file: string) => (existsSync(file) ? statSync(file).size : 0);

async function durableLargeWorld(
  rows: Row[],
  add: (
    scenario: string,
    world: string,
    r: Awaited<ReturnType<typeof drive>>,
    pid: number | undefined,
  ) => void,
  json: Record<string, string>,
): Promise<void> {
  const ROWS = QUICK ? 10_000 : 100_000;
  const world = `${ROWS.toLocaleString('en')} datastore rows`;
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-bench-rows-'));
  const file = join(dir, 'world.json');
  const server = await start(sandboxCommand('--db', file), '/__sandbox/clock');
  const auth = { authorization: `Bearer ${await token(server.url)}` };
  const ids = seedDirectory(SEED);
  const consumer = ids.verticalConsumers.INVOICING as string;
  const stores = (await (await fetch(`${server.url}/datastores`, { headers: auth })).json()) as {
    id: string;
    name: string;
  }[];
  const datastore = stores.find((d) => d.name === INVOICE_STATE.name)?.id as string;
  const dataPath = `/consumers/${consumer}/datastore/${datastore}/data`;
  const row = (n: number) => ({
    data: { invoice_number: `INV-${n}`, amount: 12.5, synced_at: '2026-01-10T10:00:00Z' },
  });
  const BATCH = 1000;
  for (let i = 0; i < ROWS; i += BATCH) {
    const res = await fetch(`${server.url}${dataPath}`, {
      method: 'POST',
      headers: { ...json, ...auth },
      body: JSON.stringify(Array.from({ length: BATCH }, (_, j) => row(i + j))),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`filling the datastore answered ${res.status}`);
  }
  // Whatever compaction the filling started has finished: measure writes, not the catch-up.
  await new Promise((resolve) => setTimeout(resolve, QUICK ? 500 : 3000));
  const journal = `${file}.journal`;
  // Each write at 50 connections, then at 10, where it has a target: at 50, a write's p99 is mostly
  // its wait for the 49 before it.
  const durableWrite = async (scenario: string, path: string, body: string, collection: string) => {
    let largest = 0;
    for (const connections of [CONNECTIONS, DURABLE_WRITE_CONNECTIONS]) {
      const offset = sizeOf(journal);
      const r = await drive(server.url, {
        method: 'POST',
        path,
        headers: { ...json, ...auth },
        body,
        connections,
      });
      largest = Math.max(largest, largestLine(journal, offset, collection));
      if (connections === CONNECTIONS) {
        add(scenario, world, r, server.child.pid);
        continue;
      }
      add(`${scenario} (${connections} connections)`, world, r, server.child.pid);
      const target = `target p99 < ${DURABLE_WRITE_P99_MS} ms at ${connections} connections: ${r.p99 < DURABLE_WRITE_P99_MS ? 'met' : '**not met**'}`;
      const added = rows.at(-1) as Row;
      added.note = [added.note, target].filter(Boolean).join('; ');
    }
    return largest;
  };
  const rowLine = await durableWrite(
    'POST one datastore row, durable',
    dataPath,
    JSON.stringify([row(-1)]),
    'datastore_data',
  );
  const contactLine = await durableWrite(
    'POST invoicing contact, durable',
    `/consumers/${consumer}/invoicing/contacts`,
    JSON.stringify({ company_name: 'Journal line BV', email: 'billing@journal.example' }),
    'invoicing_datasets',
  );
  const largest = Math.max(rowLine, contactLine);
  rows.push({
    scenario: 'largest journal line of one write',
    world,
    rps: null,
    p50: null,
    p99: null,
    rssMiB: peakRssMiB(server.child.pid),
    note: `datastore row ${rowLine} B, invoicing contact ${contactLine} B (target < 8 KB: ${largest < JOURNAL_LINE_TARGET_BYTES ? 'met' : '**not met**'})`,
  });
  await stop(server);
  rmSync(dir, { recursive: true, force: true });
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number) : 0;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const kb = (bytes: number) => `${Math.round(bytes / 1000).toLocaleString('en')} KB`;

/**
 * The large world kept in a file: the first read of one list per vertical connection of 1,000
 * consumers (200 in quick mode), one at a time, then one write; the growth of the world file; and
 * a restart on that file, to its first authenticated answer.
 */
async function largeWorldOnFile(rows: Row[]): Promise<void> {
  const CONSUMERS = QUICK ? 200 : 1000;
  const world = 'large (100,000), --db';
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-bench-large-'));
  const file = join(dir, 'world.json');
  const journal = `${file}.journal`;
  const command = sandboxCommand('--size', 'large', '--db', file);
  const first = await start(command, '/__sandbox/clock');
  const atStart = { file: sizeOf(file), journal: sizeOf(journal) };
  const auth = { authorization: `Bearer ${await token(first.url)}` };
  const get = async <T>(path: string, headers: Record<string, string> = auth): Promise<T> => {
    const res = await fetch(`${first.url}${path}`, { headers });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
    return (await res.json()) as T;
  };

  // What a client learns first: which integration supports which operation, and the consumers.
  const integrations = await get<
    { integrationid: number; operations_coverage: { operation: string; status: string }[] }[]
  >('/integrations?include_coverage=true');
  const supported = new Map(
    integrations.map((i) => [
      i.integrationid,
      new Set(i.operations_coverage.filter((c) => c.status === 'SUPPORTED').map((c) => c.operation)),
    ]),
  );
  const consumers = await get<{ consumerid: string }[]>('/consumers');

  const latencies: number[] = [];
  const byList = new Map<string, number>();
  const failures = new Map<number, number>();
  let reached = 0;
  let unsupported = 0;
  const began = performance.now();
  for (const { consumerid } of consumers) {
    if (reached === CONSUMERS) break;
    const connections = await get<
      { connectionid: string; integrationid: number; api: string; status: string }[]
    >(`/consumers/${consumerid}/connections`);
    const lists = connections.filter((c) => c.status === 'active' && VERTICAL_LISTS[c.api]);
    const readable = lists.filter((c) =>
      supported.get(c.integrationid)?.has((VERTICAL_LISTS[c.api] as { operation: string }).operation),
    );
    unsupported += lists.length - readable.length;
    if (!readable.length) continue;
    reached += 1;
    for (const connection of readable) {
      const list = VERTICAL_LISTS[connection.api] as { label: string; path: string };
      const headers = { ...auth, 'x-chift-connectionid': connection.connectionid };
      let query = '';
      if (connection.api === 'Accounting') {
        // The journals of a folder: the client lists the folders first (an integration with several
        // folders requires folder_id) and reads those of the first.
        const folders = await get<{ id: string }[]>(`/consumers/${consumerid}/accounting/folders`, headers);
        query = `?folder_id=${encodeURIComponent(folders[0]?.id ?? '')}`;
      }
      const t0 = performance.now();
      const res = await fetch(`${first.url}/consumers/${consumerid}/${list.path}${query}`, { headers });
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
      byList.set(list.label, (byList.get(list.label) ?? 0) + 1);
      if (res.status !== 200) failures.set(res.status, (failures.get(res.status) ?? 0) + 1);
    }
  }
  const seconds = ((performance.now() - began) / 1000).toFixed(1);
  const afterReads = { file: sizeOf(file), journal: sizeOf(journal) };

  const renamed = await fetch(`${first.url}/consumers/${consumers[0]?.consumerid}`, {
    method: 'PATCH',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Renamed by the benchmark' }),
  });
  await renamed.arrayBuffer();
  if (renamed.status !== 200) throw new Error(`PATCH /consumers/{id} answered ${renamed.status}`);
  const rss = peakRssMiB(first.child.pid);
  await stop(first, 'SIGTERM');
  const atStop = { file: sizeOf(file), journal: sizeOf(journal) };

  latencies.sort((a, b) => a - b);
  const nonOk = [...failures].map(([status, n]) => `${n} answered ${status}`).join(', ');
  const reads = latencies.length;
  rows.push({
    scenario: DERIVED.reads,
    world,
    rps: null,
    p50: Math.round(percentile(latencies, 0.5)),
    p99: Math.round(percentile(latencies, 0.99)),
    rssMiB: rss,
    note: [
      `${reads.toLocaleString('en')} lists of ${CONSUMERS.toLocaleString('en')} consumers${QUICK ? ' (quick mode; 1,000 in a full run)' : ''} in ${seconds} s, one at a time (${[...byList].map(([label, n]) => `${label} ${n}`).join(', ')}; each accounting read after its folders)`,
      nonOk ? `**${nonOk}**` : 'all 200',
      unsupported
        ? `${unsupported} connection${unsupported === 1 ? '' : 's'} left out (the integration does not support the list)`
        : '',
      `peak RSS target < 600 MiB: ${rss < 600 ? 'met' : '**not met**'}`,
    ]
      .filter(Boolean)
      .join('; '),
  });
  const growth = atStop.file + atStop.journal - (atStart.file + atStart.journal);
  rows.push({
    scenario: DERIVED.growth,
    world,
    rps: null,
    p50: null,
    p99: null,
    rssMiB: 0,
    note: `file ${mb(atStart.file)} and journal ${kb(atStart.journal)} at start; after the reads, journal ${kb(afterReads.journal)}; after a PATCH of a consumer's name and SIGTERM, file ${mb(atStop.file)} and journal ${kb(atStop.journal)}: +${kb(growth)} (target < 1 MB: ${growth < 1e6 ? 'met' : '**not met**'})`,
  });

  // The restart: from the spawn to the first authenticated 200 (a token, then the renamed consumer).
  const consumer = consumers[0]?.consumerid;
  const again = await start(command, async (url) => {
    try {
      const bearer = await token(url);
      const res = await fetch(`${url}/consumers/${consumer}`, {
        headers: { authorization: `Bearer ${bearer}` },
      });
      const body = (await res.json()) as { name?: string };
      if (res.status === 200 && body.name !== 'Renamed by the benchmark')
        throw new Error('the write was lost');
      return res.status === 200;
    } catch (error) {
      if (error instanceof Error && error.message === 'the write was lost') throw error;
      return false;
    }
  });
  rows.push({
    scenario: DERIVED.restart,
    world,
    rps: null,
    p50: null,
    p99: null,
    rssMiB: peakRssMiB(again.child.pid),
    note: `${again.startMs} ms, the write kept (target < ${RESTART_TARGET_MS / 1000} s: ${again.startMs < RESTART_TARGET_MS ? 'met' : '**not met**'})`,
  });
  await stop(again);
  rmSync(dir, { recursive: true, force: true });
}

const RESTART_TARGET_MS = 3000;
const DATALAB_ANSWER_MS = 11_000;
const DATALAB_GET_P99_MS = 50;
const DATALAB_RSS_MIB = 1024;

/**
 * A Datalab count over every POS connection of the large world (in memory), and what an
 * authenticated read waits meanwhile: one connection reading a consumer for as long as the query
 * runs. The query reads each connection's dataset in passing (generated for that read when not
 * cached): it answers, or refuses with a 400 past its budget.
 */
async function datalabOverLargeWorld(rows: Row[]): Promise<void> {
  const world = 'large (100,000)';
  const server = await start(sandboxCommand('--size', 'large'), '/__sandbox/clock');
  const auth = { authorization: `Bearer ${await token(server.url)}` };
  const path = `/consumers/${seedDirectory(SEED).verticalConsumers.ACCOUNTING}`;
  for (let i = 0; i < 200; i++) await (await fetch(`${server.url}${path}`, { headers: auth })).arrayBuffer();
  // Reads for as long as the query runs (stopped when it answers; 60 s at most).
  let reads: autocannon.Instance | undefined;
  const readsDone = new Promise<autocannon.Result>((resolve, reject) => {
    reads = autocannon(
      { url: `${server.url}${path}`, headers: auth, connections: 1, duration: 60 },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
  const began = performance.now();
  const res = await fetch(`${server.url}/datalab/query-db`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ measures: ['pos_orders.count'] }),
  });
  const body = (await res.json()) as { message?: string; detail?: string; data?: unknown[] };
  const ms = Math.round(performance.now() - began);
  reads?.stop();
  const during = await readsDone;
  const rss = peakRssMiB(server.child.pid);
  await stop(server);
  const answered = res.status === 200 || (res.status === 400 && ms < DATALAB_ANSWER_MS);
  const what =
    res.status === 200
      ? `answered 200 in ${ms.toLocaleString('en')} ms`
      : `answered ${res.status} after ${ms.toLocaleString('en')} ms (${body.detail ?? body.message ?? 'no message'})`;
  rows.push({
    scenario: DERIVED.datalab,
    world,
    rps: null,
    p50: null,
    p99: null,
    rssMiB: rss,
    note: `${what}; target: an answer, or a 400 within its budget (under ${DATALAB_ANSWER_MS / 1000} s), never a 5xx: ${answered ? 'met' : '**not met**'}; peak RSS target < 1 GiB: ${rss < DATALAB_RSS_MIB ? 'met' : '**not met**'}`,
  });
  const errors = during.errors + during.non2xx + during.timeouts;
  rows.push({
    scenario: DERIVED.duringDatalab,
    world,
    rps: Math.round(during.requests.average),
    p50: during.latency.p50,
    p99: during.latency.p99,
    rssMiB: rss,
    note: [
      errors ? `${errors} non-2xx/errors` : '',
      `1 connection, ${during.requests.total.toLocaleString('en')} reads while the query ran (max ${during.latency.max} ms)`,
      `target p99 < ${DATALAB_GET_P99_MS} ms: ${during.latency.p99 < DATALAB_GET_P99_MS ? 'met' : '**not met**'}`,
    ]
      .filter(Boolean)
      .join('; '),
  });
}

const START = '<!-- results:start -->';
const END = '<!-- results:end -->';

/** Replaces the results between the markers of docs/benchmarks.md, keeping the text around them. */
function writeResults(file: string, results: string): void {
  mkdirSync(join(ROOT, 'docs'), { recursive: true });
  let text = `# Benchmarks\n\n${START}\n${END}\n`;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // a new file
  }
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  const updated =
    from >= 0 && to > from
      ? `${text.slice(0, from + START.length)}\n${results}\n${text.slice(to)}`
      : `${text}\n${START}\n${results}\n${END}\n`;
  writeFileSync(file, updated);
}

function render(rows: Row[], ceiling: number): string {
  const lines = [
    '| scenario | world | req/s | ratio to bare | p50 ms | p99 ms | peak RSS MiB | note |',
    '|---|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const r of rows) {
    const ratio = r.rps === null ? '' : (r.rps / ceiling).toFixed(2);
    lines.push(
      `| ${r.scenario} | ${r.world} | ${r.rps ?? ''} | ${ratio} | ${r.p50 ?? ''} | ${r.p99 ?? ''} | ${r.rssMiB} | ${r.note} |`,
    );
  }
  return lines.join('\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
