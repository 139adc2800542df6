import type { ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import { seedDirectory } from '../src/control/seeded-world.js';
import { seedCredentials } from '../src/platform/credentials.js';
import { cpuSeconds, spawnListening } from './proc.js';

/**
 * npx tsx bench/read-ab.ts --a=<built tree> --b=<built tree> [--rounds=5] [--seconds=10]
 *
 * The authenticated read (`GET /consumers/{id}` with a valid token, 50 connections) of two builds
 * side by side: build A, build B, and build B with `--request-journal 0`, each a server of its own
 * started once, then measured in turn, round after round, the order rotated each round, so that the
 * machine's other load falls on all three alike. Each measure is 2 s of warm-up, not counted, then
 * `--seconds` counted. Prints each measure with the load average, then the median req/s and server
 * CPU a request of each, B against A, and what the journal costs B, both in req/s and in the server's
 * CPU a request (on two cores shared with autocannon and other work, the CPU a request moves less
 * with the machine's load than the req/s), with the load average at the start and the end. A build is
 * a folder holding `dist/cli.mjs` (`npm run build` in it).
 */

const args = new Map(
  process.argv.slice(2).map((arg) => {
    const [name, ...value] = arg.replace(/^--/, '').split('=');
    return [name as string, value.join('=')] as const;
  }),
);
const A = resolve(args.get('a') ?? '.');
const B = resolve(args.get('b') ?? '.');
const ROUNDS = Number(args.get('rounds') ?? 5);
const SECONDS = Number(args.get('seconds') ?? 10);
const CONNECTIONS = 50;
const SEED = 1;

interface Server {
  child: ChildProcess;
  url: string;
  bearer: string;
}

interface Variant {
  name: string;
  root: string;
  extra: string[];
  server?: Server;
  rps: number[];
  cpuUs: number[];
}

function startServer(root: string, extra: string[]): Promise<Server> {
  const command = [
    `${root}/dist/cli.mjs`,
    'serve',
    '--port',
    '0',
    '--quiet',
    '--seed',
    String(SEED),
    ...extra,
  ];
  return spawnListening(command, root).then(async ({ child, url }) => {
    try {
      return { child, url, bearer: await token(url) };
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
  });
}

async function token(url: string): Promise<string> {
  const creds = seedCredentials(SEED);
  for (;;) {
    try {
      const res = await fetch(`${url}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ accountId: creds.accountId, ...creds.sandbox }),
      });
      if (res.ok) return ((await res.json()) as { access_token: string }).access_token;
      await res.arrayBuffer();
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function measure(
  server: Server,
  path: string,
): Promise<{ rps: number; cpuUs: number | null; bad: number }> {
  const request = {
    url: `${server.url}${path}`,
    connections: CONNECTIONS,
    headers: { authorization: `Bearer ${server.bearer}` },
  };
  await autocannon({ ...request, duration: 2 });
  const pid = server.child.pid;
  const before = cpuSeconds(pid);
  const result = await autocannon({ ...request, duration: SECONDS });
  const after = cpuSeconds(pid);
  const cpuUs =
    before === null || after === null || result.requests.total === 0
      ? null
      : Math.round((((after - before) * 1e6) / result.requests.total) * 10) / 10;
  return {
    rps: Math.round(result.requests.average),
    cpuUs,
    bad: result.errors + result.non2xx + result.timeouts,
  };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

async function main() {
  const path = `/consumers/${seedDirectory(SEED).verticalConsumers.ACCOUNTING}`;
  const variants: Variant[] = [
    { name: `A ${A}`, root: A, extra: [], rps: [], cpuUs: [] },
    { name: `B ${B}`, root: B, extra: [], rps: [], cpuUs: [] },
    { name: `B ${B} --request-journal 0`, root: B, extra: ['--request-journal', '0'], rps: [], cpuUs: [] },
  ];
  const loadAtStart = load();
  console.log(
    `load average at the start: ${loadAtStart}; ${ROUNDS} rounds of ${SECONDS} s each, ${CONNECTIONS} connections`,
  );
  try {
    for (const variant of variants) variant.server = await startServer(variant.root, variant.extra);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (let i = 0; i < variants.length; i += 1) {
        const variant = variants[(round + i) % variants.length] as Variant;
        const r = await measure(variant.server as Server, path);
        if (r.bad > 0) throw new Error(`${variant.name}: ${r.bad} errors or non-2xx answers`);
        variant.rps.push(r.rps);
        if (r.cpuUs !== null) variant.cpuUs.push(r.cpuUs);
        console.log(
          `round ${round + 1} | ${variant.name} | ${r.rps} req/s | ${r.cpuUs ?? '?'} µs | load ${load()}`,
        );
      }
    }
  } finally {
    for (const variant of variants) variant.server?.child.kill('SIGKILL');
  }
  console.log(`\nload average at the start ${loadAtStart}, at the end ${load()}`);
  for (const variant of variants) {
    console.log(
      `${variant.name}: median ${median(variant.rps)} req/s (${variant.rps.join(', ')}); server CPU median ${median(variant.cpuUs)} µs a request`,
    );
  }
  const [a, b, off] = variants.map((v) => median(v.rps)) as [number, number, number];
  const [cpuA, cpuB, cpuOff] = variants.map((v) => median(v.cpuUs)) as [number, number, number];
  console.log(
    `B / A: ${(b / a).toFixed(3)} in req/s, ${(cpuA / cpuB).toFixed(3)} by the server's CPU a request`,
  );
  console.log(
    `the journal's cost in B: ${((1 - b / off) * 100).toFixed(1)} % of the req/s (1 - on / off), ${((1 - cpuOff / cpuB) * 100).toFixed(1)} % of the CPU a read takes (1 - off / on)`,
  );
}

await main();
