/**
 * node bench/worlds.mjs <library entry> [count]
 *
 * Run by bench/run.ts in a process of its own: a server on loopback (startSandbox, port 0), then
 * `count` worlds created over HTTP one after the other, each followed by its first authenticated
 * answer (its token exchanged with its own keys, then GET /consumers): the time of each pair, and the
 * resident memory once 100 of them are live against before the first. Prints one line of JSON.
 */
import { pathToFileURL } from 'node:url';

const entry = pathToFileURL(process.argv[2] ?? 'dist/index.mjs').href;
const COUNT = Number(process.argv[3] ?? 100);
const { startSandbox } = await import(entry);

const sandbox = await startSandbox({ port: 0, seed: 1 });
const post = (path, body, headers = {}) =>
  fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

async function createAndAnswer() {
  const began = performance.now();
  const created = await post('/__sandbox/worlds', { clock: 'now' });
  if (created.status !== 201) throw new Error(`POST /__sandbox/worlds answered ${created.status}`);
  const world = await created.json();
  const { credentials } = world;
  const token = await post('/token', {
    accountId: credentials.account_id,
    clientId: credentials.sandbox.client_id,
    clientSecret: credentials.sandbox.client_secret,
  });
  const { access_token } = await token.json();
  const read = await fetch(`${sandbox.url}/consumers`, {
    headers: { authorization: `Bearer ${access_token}` },
  });
  await read.text();
  if (read.status !== 200) throw new Error(`the world's first read answered ${read.status}`);
  return performance.now() - began;
}

// One world made and deleted first, so that the code is loaded before anything is measured.
await createAndAnswer();
for (const { id } of sandbox.worlds.list().items) await sandbox.worlds.delete(id);
globalThis.gc?.();
const rssBefore = process.memoryUsage().rss;
const times = [];
for (let i = 0; i < COUNT; i++) times.push(await createAndAnswer());
globalThis.gc?.();
const rssAfter = process.memoryUsage().rss;
times.sort((a, b) => a - b);
const at = (q) => Math.round(times[Math.min(times.length - 1, Math.floor(times.length * q))] * 10) / 10;
const mib = (bytes) => Math.round(bytes / 1024 / 1024);
process.stdout.write(
  `${JSON.stringify({ count: COUNT, p50: at(0.5), p99: at(0.99), rssBeforeMiB: mib(rssBefore), rssAfterMiB: mib(rssAfter), live: sandbox.worlds.list().total })}\n`,
);
await sandbox.close();
