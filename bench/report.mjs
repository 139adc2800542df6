/**
 * node bench/report.mjs <library entry> [requests]
 *
 * Run by bench/run.ts in a process of its own: an app in process (createApp) whose journal is filled
 * with `requests` requests of a sloppy client (pages read in part, a write repeated without a request
 * id with a field its schema lacks, a path the API does not have, an unknown query parameter), then
 * the readiness report read five times: the time of each, and the longest the event loop was held
 * while one was made (a 1 ms timer's longest gap). Prints one line of JSON.
 */
import { pathToFileURL } from 'node:url';

const entry = pathToFileURL(process.argv[2] ?? 'dist/index.mjs').href;
const COUNT = Number(process.argv[3] ?? 10_000);
const { createApp, seedDirectory } = await import(entry);

const app = createApp({ seed: 7 });
const ids = seedDirectory(7);
const exchanged = await app.request('/token', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    accountId: ids.accountId,
    clientId: ids.sandbox.clientId,
    clientSecret: ids.sandbox.clientSecret,
  }),
});
const { access_token } = await exchanged.json();
const headers = { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' };
const consumer = ids.verticalConsumers.INVOICING;
for (let i = 0; i < COUNT; i += 1) {
  const kind = i % 4;
  const res =
    kind === 0
      ? await app.request(`/consumers/${consumer}/invoicing/invoices?page=${1 + (i % 3)}&size=50`, {
          headers,
        })
      : kind === 1
        ? await app.request(`/consumers/${consumer}/invoicing/contacts`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ company_name: `Contact ${i % 50}`, colour: 'blue' }),
          })
        : kind === 2
          ? await app.request('/consumers/nope/invoicing/invoicez', { headers })
          : await app.request(`/consumers/${consumer}/invoicing/taxes?bogus=${i}`, { headers });
  await res.arrayBuffer();
}

const times = [];
let findings = 0;
let stall = 0;
for (let run = 0; run < 5; run += 1) {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 1);
  const began = performance.now();
  const res = await app.request('/__sandbox/report');
  const body = await res.json();
  times.push(performance.now() - began);
  clearInterval(timer);
  if (res.status !== 200) throw new Error(`GET /__sandbox/report answered ${res.status}`);
  findings = body.summary.findings;
  stall = Math.max(stall, worst);
}
times.sort((a, b) => a - b);
const round = (n) => Math.round(n * 10) / 10;
console.log(
  JSON.stringify({
    requests: COUNT,
    p50: round(times[2]),
    max: round(times[4]),
    stall: round(stall),
    findings,
    rssMiB: Math.round(process.memoryUsage().rss / 1048576),
  }),
);
