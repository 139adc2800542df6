/**
 * node bench/fresh-world.mjs <library entry> [repeats]
 *
 * Run by bench/run.ts in a process of its own, so that nothing is loaded or compiled before it: the
 * time from importing the library (the built package entry) to the first authenticated answer of a
 * new app, then, in the same process, a further createApp, a reset, the first /openapi.json, and the
 * first read of a connection's dataset on a new app (its POS orders, then its invoicing invoices),
 * and the clock moved a year forward with every vertical's data in use (each list read again after
 * the move), then one more day and yesterday's orders read.
 * Prints one line of JSON, in milliseconds.
 */
import { pathToFileURL } from 'node:url';

const entry = pathToFileURL(process.argv[2] ?? 'dist/index.mjs').href;
const REPEATS = Number(process.argv[3] ?? 20);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const began = performance.now();
const { createApp, seedCredentials, seedDirectory } = await import(entry);
const imported = performance.now();
const app = createApp({ seed: 1 });
const created = performance.now();
const creds = seedCredentials(1);
const tokenRes = await app.request('/token', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ accountId: creds.accountId, ...creds.sandbox }),
});
const { access_token } = await tokenRes.json();
const read = await app.request(`/consumers/${seedDirectory(1).verticalConsumers.ACCOUNTING}`, {
  headers: { authorization: `Bearer ${access_token}` },
});
await read.text();
const answered = performance.now();
if (read.status !== 200) throw new Error(`the first authenticated read answered ${read.status}`);

// The first /openapi.json of the process, on an app of its own: the document alone (an app with an
// admin token serves it without examples), then an app's first, with the examples read from its world.
const other = createApp({ seed: 1, adminToken: 'bench' });
const docStart = performance.now();
const doc = await other.request('/openapi.json');
await doc.text();
const openapi = performance.now() - docStart;
if (doc.status !== 200) throw new Error(`/openapi.json answered ${doc.status}`);
const third = createApp({ seed: 1 });
const examplesStart = performance.now();
const exampled = await third.request('/openapi.json');
await exampled.text();
const openapiExamples = performance.now() - examplesStart;
if (exampled.status !== 200) throw new Error(`/openapi.json answered ${exampled.status}`);

const creates = [];
for (let i = 0; i < REPEATS; i++) {
  const start = performance.now();
  createApp({ seed: 1 });
  creates.push(performance.now() - start);
}
const resets = [];
for (let i = 0; i < REPEATS; i++) {
  const start = performance.now();
  const res = await app.request('/__sandbox/reset', { method: 'POST' });
  await res.text();
  resets.push(performance.now() - start);
  if (res.status !== 200) throw new Error(`reset answered ${res.status}`);
}

// The first read of a connection's dataset on a new app: the examples above read every vertical's
// showcase consumer on an app of their own, so the process shares the datasets they built (what a
// test suite that makes a new app per test meets from its second test on). The POS consumer's
// orders, then the invoicing consumer's invoices; then a dataset no app of the process built before
// (another seed's POS consumer), generated at that read with the code warm.
const fresh = createApp({ seed: 1 });
const freshToken = await fresh.request('/token', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ accountId: creds.accountId, ...creds.sandbox }),
});
const freshAuth = { authorization: `Bearer ${(await freshToken.json()).access_token}` };
async function firstRead(path) {
  const start = performance.now();
  const res = await fresh.request(path, { headers: freshAuth });
  await res.text();
  const ms = performance.now() - start;
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
  return ms;
}
const { verticalConsumers } = seedDirectory(1);
const firstPosOrders = await firstRead(`/consumers/${verticalConsumers.POS}/pos/orders`);
const firstInvoices = await firstRead(`/consumers/${verticalConsumers.INVOICING}/invoicing/invoices`);
// The same read again: the dataset is in the app's cache now.
const againPosOrders = await firstRead(`/consumers/${verticalConsumers.POS}/pos/orders`);
const otherSeed = createApp({ seed: 2 });
const otherCreds = seedCredentials(2);
const otherToken = await otherSeed.request('/token', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ accountId: otherCreds.accountId, ...otherCreds.sandbox }),
});
const otherAuth = { authorization: `Bearer ${(await otherToken.json()).access_token}` };
const builtStart = performance.now();
const built = await otherSeed.request(`/consumers/${seedDirectory(2).verticalConsumers.POS}/pos/orders`, {
  headers: otherAuth,
});
await built.text();
const builtPosOrders = performance.now() - builtStart;
if (built.status !== 200) throw new Error(`another seed's POS orders answered ${built.status}`);

// The living world: every vertical's showcase data in use, the clock moved a year forward (the
// background work of the move included) and each of those lists read once more (each dataset built
// again with the year's business); then what a nightly sync reads: yesterday's orders of the POS
// connection, at the first read after the move and once more (from the cache).
const LIVING_LISTS = [
  `/consumers/${verticalConsumers.POS}/pos/orders`,
  `/consumers/${verticalConsumers.ECOMMERCE}/commerce/orders`,
  `/consumers/${verticalConsumers.INVOICING}/invoicing/invoices`,
  `/consumers/${verticalConsumers.ACCOUNTING}/accounting/invoices/type/customer_invoice`,
  `/consumers/${verticalConsumers.BANKING}/banking/accounts`,
  `/consumers/${verticalConsumers.PAYMENT}/payment/payments`,
  `/consumers/${verticalConsumers.PMS}/pms/locations`,
];
for (const path of LIVING_LISTS) await firstRead(path);
const yearStart = performance.now();
const year = await fresh.request('/__sandbox/clock', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ advance_seconds: 365 * 86_400 }),
});
const { now } = await year.json();
if (year.status !== 200) throw new Error(`the clock answered ${year.status}`);
const lateToken = await fresh.request('/token', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ accountId: creds.accountId, ...creds.sandbox }),
});
freshAuth.authorization = `Bearer ${(await lateToken.json()).access_token}`;
for (const path of LIVING_LISTS) await firstRead(path);
const yearMs = performance.now() - yearStart;
const yesterday = now.slice(0, 10); // the day of the move's reading, over once the next day began
// A new day: the lists read above were built for it; yesterday's POS orders come from the cache
// only on the second read, the first reads them after the rest of the datasets were built.
await fresh.request('/__sandbox/clock', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ advance_seconds: 86_400 }),
});
const dayToken = await fresh.request('/token', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ accountId: creds.accountId, ...creds.sandbox }),
});
freshAuth.authorization = `Bearer ${(await dayToken.json()).access_token}`;
const sinceYesterdayPath = `/consumers/${verticalConsumers.POS}/pos/orders?date_from=${yesterday}&date_to=${yesterday}`;
const sinceYesterday = await firstRead(sinceYesterdayPath);
const sinceYesterdayAgain = await firstRead(sinceYesterdayPath);

const round = (ms) => Math.round(ms * 10) / 10;
console.log(
  JSON.stringify({
    import: round(imported - began),
    createApp: round(created - imported),
    firstAnswer: round(answered - created),
    total: round(answered - began),
    furtherCreateApp: round(median(creates)),
    reset: round(median(resets)),
    openapi: round(openapi),
    openapiExamples: round(openapiExamples),
    firstPosOrders: round(firstPosOrders),
    firstInvoices: round(firstInvoices),
    againPosOrders: round(againPosOrders),
    builtPosOrders: round(builtPosOrders),
    yearMs: round(yearMs),
    sinceYesterday: round(sinceYesterday),
    sinceYesterdayAgain: round(sinceYesterdayAgain),
    rssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
