/**
 * npx tsx bench/scaling.ts [--quick]      (after npm run build; needs nginx, as .ci/run installs it)
 *
 * The figures of docs/scaling.md, measured on the arrangement its test runs (test/system/nginx.test.ts):
 * two processes of dist/cli.mjs with the page's options, nginx with the page's configuration in a
 * temporary folder. Run by hand, not by the suite nor by `npm run bench`.
 *
 * 1. Worlds a process holds: on one process with the default bounds, worlds are created until one is
 *    refused with 429; its resident memory (VmRSS) is read before the first, once they all exist, and
 *    once each has answered a few reads (a token, its consumers, an invoicing and a POS dataset).
 * 2. Requests a second: GET /consumers/{id} with a world's token, by autocannon (50 connections,
 *    2 s of warm-up, then 10 s), straight to the other process and through nginx (/p2/), in turns,
 *    three of each (the median's figures), with the CPU time the sandbox and nginx's workers spent a
 *    request, which the machine's other load moves less than the throughput.
 *
 * Prints a table and one line of JSON. Nothing is written; nothing is asserted.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import autocannon from 'autocannon';
import type { ServingCli } from '../test/cli/helpers.js';
import { findNginx, startArrangement } from '../test/system/router.js';
import { cpuSeconds } from './proc.js';

const QUICK = process.argv.includes('--quick');
const DURATION = QUICK ? 1 : 10;
const WARM_UP = QUICK ? 1 : 2;
const CONNECTIONS = 50;
/** Turns of each route; the median's figures are kept. */
const ROUNDS = QUICK ? 1 : 3;
const ADMIN = 'scaling-bench-admin-token';
const admin = { authorization: `Bearer ${ADMIN}` };

interface World {
  id: string;
  credentials: { account_id: string; sandbox: { client_id: string; client_secret: string } };
  env: Record<string, string>;
  clock: { now: string };
}

const rssMiB = (pid: number | undefined): number => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

async function json(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.url} answered ${res.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

const createWorld = (base: string) =>
  fetch(`${base}/__sandbox/worlds`, {
    method: 'POST',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({}),
  });

async function tokenOf(base: string, world: World): Promise<string> {
  const res = await fetch(`${base}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      accountId: world.credentials.account_id,
      clientId: world.credentials.sandbox.client_id,
      clientSecret: world.credentials.sandbox.client_secret,
    }),
  });
  return ((await json(res)) as { access_token: string }).access_token;
}

/** A token, then a few reads of the world: its consumers, an invoicing and a POS dataset. */
async function readsOf(base: string, world: World): Promise<void> {
  const headers = { authorization: `Bearer ${await tokenOf(base, world)}` };
  const day = world.clock.now.slice(0, 10);
  const weekBefore = new Date(Date.parse(world.clock.now) - 7 * 86_400_000).toISOString().slice(0, 10);
  const invoicing = world.env.SANDBOX_CONSUMER_ID_INVOICING;
  const pos = world.env.SANDBOX_CONSUMER_ID_POS;
  for (const path of [
    '/consumers',
    `/consumers/${invoicing}/invoicing/invoices?invoice_type=customer_invoice`,
    `/consumers/${pos}/pos/orders?date_from=${weekBefore}&date_to=${day}`,
  ]) {
    await json(await fetch(`${base}${path}`, { headers }));
  }
}

interface Held {
  worlds: number;
  refusal: number;
  rssBeforeMiB: number;
  rssCreatedMiB: number;
  rssReadMiB: number;
  createMs: number;
  /** What the worlds hold by the sandbox's own count (their `bytes`), once read, of `maxBytes`. */
  heldMiB: number;
  maxBytesMiB: number;
}

/** Worlds on one process until 429, and what they cost it. */
async function worldsHeld(served: ServingCli): Promise<Held> {
  const base = served.url;
  // One world made, read and deleted first, so that the code it runs is loaded before measuring.
  const first = (await json(await createWorld(base))) as World;
  await readsOf(base, first);
  const deleted = await fetch(`${base}/__sandbox/worlds/${first.id}`, { method: 'DELETE', headers: admin });
  if (deleted.status !== 204) throw new Error(`DELETE of the first world answered ${deleted.status}`);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const rssBeforeMiB = rssMiB(served.child.pid);
  const worlds: World[] = [];
  const began = performance.now();
  let refusal = 0;
  for (;;) {
    const res = await createWorld(base);
    if (res.status !== 201) {
      refusal = res.status;
      await res.text();
      break;
    }
    worlds.push((await res.json()) as World);
  }
  const createMs = (performance.now() - began) / worlds.length;
  const rssCreatedMiB = rssMiB(served.child.pid);
  for (const world of worlds) await readsOf(base, world);
  const rssReadMiB = rssMiB(served.child.pid);
  const list = (await json(await fetch(`${base}/__sandbox/worlds`, { headers: admin }))) as {
    items: { bytes: number }[];
    max_bytes: number;
  };
  const heldMiB = list.items.reduce((sum, world) => sum + world.bytes, 0) / 2 ** 20;
  const maxBytesMiB = list.max_bytes / 2 ** 20;
  return {
    worlds: worlds.length,
    refusal,
    rssBeforeMiB,
    rssCreatedMiB,
    rssReadMiB,
    createMs,
    heldMiB,
    maxBytesMiB,
  };
}

interface Speed {
  rps: number;
  p50: number;
  p99: number;
  /** The sandbox process's CPU time over the measure, a request. */
  sandboxCpuUs: number;
  /** nginx's (its workers') CPU time over the measure, a request. */
  routerCpuUs: number;
  /** Requests whose connection failed (autocannon's errors), of `requests`. */
  errors: number;
  requests: number;
}

/** The pids of a process's children (nginx's workers), from /proc. */
function childrenOf(pid: number | undefined): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        // The parent's pid is the second field after the command's name.
        return Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + (cpuSeconds(pid) ?? 0), 0);

async function drive(url: string, token: string, sandbox: number[], router: number[]): Promise<Speed> {
  const options = { url, connections: CONNECTIONS, headers: { authorization: `Bearer ${token}` } };
  await autocannon({ ...options, duration: WARM_UP });
  const before = [cpuOf(sandbox), cpuOf(router)];
  const result = await autocannon({ ...options, duration: DURATION });
  const after = [cpuOf(sandbox), cpuOf(router)];
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} answers not 2xx`);
  const perRequest = (i: number) =>
    Math.round((((after[i] ?? 0) - (before[i] ?? 0)) * 1e6 * 10) / result.requests.total) / 10;
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    sandboxCpuUs: perRequest(0),
    routerCpuUs: perRequest(1),
    errors: result.errors,
    requests: result.requests.total,
  };
}

/** The round of median req/s among `rounds`. */
const median = (rounds: Speed[]): Speed =>
  [...rounds].sort((a, b) => a.rps - b.rps)[Math.floor(rounds.length / 2)] as Speed;

/** Straight to the process and through nginx, in turns (the machine's other load moves both alike). */
async function speeds(
  direct: string,
  routed: string,
  token: string,
  pids: { sandbox: number[]; router: number[] },
) {
  const rounds: { direct: Speed[]; routed: Speed[] } = { direct: [], routed: [] };
  for (let round = 0; round < ROUNDS; round++) {
    rounds.direct.push(await drive(direct, token, pids.sandbox, pids.router));
    rounds.routed.push(await drive(routed, token, pids.sandbox, pids.router));
  }
  return { direct: median(rounds.direct), routed: median(rounds.routed) };
}

const speedCell = (s: Speed) =>
  `${s.rps} req/s, p50 ${s.p50} ms, p99 ${s.p99} ms; CPU a request: sandbox ${s.sandboxCpuUs} µs, nginx ${s.routerCpuUs} µs; connection errors ${s.errors} of ${s.requests}`;

async function main(): Promise<void> {
  const nginxPath = findNginx();
  if (nginxPath === undefined) throw new Error('nginx is not installed: .ci/run installs it when missing');
  const arrangement = await startArrangement(nginxPath, ADMIN);
  try {
    const { router, nginx } = arrangement;
    const { p1, p2 } = arrangement.processes;
    const held = await worldsHeld(p1);

    const world = (await json(await createWorld(`${router}/p2`))) as World;
    const token = await tokenOf(`${router}/p2`, world);
    const path = `/consumers/${world.env.SANDBOX_CONSUMER_ID_INVOICING}`;
    const pids = { sandbox: [p2.child.pid as number], router: childrenOf(nginx.child.pid) };
    const { direct, routed } = await speeds(`${p2.url}${path}`, `${router}/p2${path}`, token, pids);

    const mib = (value: number) => Math.round(value * 10) / 10;
    const perWorld = (rss: number) => mib((rss - held.rssBeforeMiB) / held.worlds);
    console.log(
      `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores (${cpus()[0]?.model}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${nginxVersion(nginxPath)}`,
    );
    console.log('| figure | value |\n|---|---|');
    console.log(
      `| worlds one process holds with the default bounds | ${held.worlds} (the next one: ${held.refusal}); once read, they hold ${mib(held.heldMiB)} of ${mib(held.maxBytesMiB)} MiB |`,
    );
    console.log(
      `| its RSS: before, with them all, after their reads | ${mib(held.rssBeforeMiB)} -> ${mib(held.rssCreatedMiB)} -> ${mib(held.rssReadMiB)} MiB |`,
    );
    console.log(
      `| RSS a world, created / having answered a few reads | ${perWorld(held.rssCreatedMiB)} / ${perWorld(held.rssReadMiB)} MiB |`,
    );
    console.log(
      `| a world's creation (mean of ${held.worlds}) | ${Math.round(held.createMs * 10) / 10} ms |`,
    );
    console.log(`| GET /consumers/{id}, straight to a process | ${speedCell(direct)} |`);
    console.log(`| the same through nginx | ${speedCell(routed)} |`);
    console.log(JSON.stringify({ held, direct, routed, connections: CONNECTIONS, seconds: DURATION }));
  } catch (error) {
    console.error(`nginx's log:\n${arrangement.nginx.log()}`);
    throw error;
  } finally {
    await arrangement.close();
  }
}

function nginxVersion(path: string): string {
  // nginx -v writes "nginx version: nginx/1.22.1" on stderr.
  return spawnSync(path, ['-v'], { encoding: 'utf8' })
    .stderr.trim()
    .replace(/^nginx version: /, '');
}

await main();
