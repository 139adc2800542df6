/**
 * Prints one line per answer of the seeded world (status, sha256 of the body, method and path) for
 * the served documents, the pages, every GET operation of the published document on every seeded
 * consumer that can answer it, the first item of each list, and a fixed series of writes. Run it
 * before and after a change that must not alter any answer, and diff the two outputs:
 *
 *   npx tsx scripts/answers-digest.ts > /tmp/before.txt   (change the code)
 *   npx tsx scripts/answers-digest.ts > /tmp/after.txt && diff /tmp/before.txt /tmp/after.txt
 *
 * It imports only the package's entry point, so it runs the same on either side of a move.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createApp, seedDirectory } from '../src/index.js';

const SEED = 7;
const app = createApp({ seed: SEED });
const ids = seedDirectory(SEED);
const lines: string[] = [];
const VOLATILE = new Set(['/console', '/__sandbox/requests?limit=20']);
const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

async function answer(method: string, path: string, token?: string, body?: unknown): Promise<string> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await app.request(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  // The console's form token is the app's own secret, and the journal records durations.
  const stable = VOLATILE.has(path) ? '-' : digest(text);
  lines.push(`${res.status} ${stable} ${method} ${path}`);
  return text;
}

const tokenText = await answer('POST', '/token', undefined, {
  clientId: ids.sandbox.clientId,
  clientSecret: ids.sandbox.clientSecret,
  accountId: ids.accountId,
  envId: ids.sandboxEnvId,
});
const token = (JSON.parse(tokenText) as { access_token: string }).access_token;

for (const page of [
  '/openapi.json',
  '/__sandbox/openapi.json',
  '/__sandbox/fixtures/schema',
  '/datalab/cube-schemas',
  '/docs',
  '/docs/sandbox',
  '/docs/prefill.json',
  '/console',
]) {
  await answer('GET', page, token);
}

interface Operation {
  parameters?: { in: string; name: string; required?: boolean }[];
}

/** Values for the required query parameters of list operations (dates inside the seeded history). */
const QUERY_VALUES: Record<string, string> = {
  date_from: '2025-01-01',
  date_to: '2025-12-31',
  date: '2025-06-02',
  unposted_allowed: 'true',
  partner_type: 'client',
  type: 'client',
};

function withQuery(path: string, op: Operation): string {
  const query = (op.parameters ?? [])
    .filter((p) => p.in === 'query' && p.required && QUERY_VALUES[p.name])
    .map((p) => `${p.name}=${QUERY_VALUES[p.name]}`);
  return query.length ? `${path}?${query.join('&')}` : path;
}
const document = JSON.parse(await (await app.request('/openapi.json')).text()) as {
  paths: Record<string, Record<string, Operation>>;
};

const consumers = [
  ...Object.values(ids.verticalConsumers),
  ids.multiFolderConsumerId,
  ids.coverageLimitsConsumerId,
  ids.syncConsumerId,
  ids.customConsumerId,
];

/** The first id a list answer names (its items, or the array itself). */
function firstId(text: string): string | null {
  try {
    const body = JSON.parse(text) as unknown;
    const items = Array.isArray(body) ? body : (body as { items?: unknown[] })?.items;
    const first = items?.[0] as Record<string, unknown> | undefined;
    const id = first?.id ?? first?.consumerid ?? first?.connectionid;
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

const gets = Object.entries(document.paths)
  .filter(([, ops]) => ops.get)
  .map(([path, ops]) => ({ path, op: ops.get as Operation }));

for (const consumer of consumers) {
  for (const { path, op } of gets) {
    const params = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
    if (params.length !== 1 || params[0] !== 'consumer_id') continue;
    const listPath = withQuery(path.replace('{consumer_id}', consumer), op);
    const text = await answer('GET', listPath, token);
    // The item operation under the list, for its first item.
    const item = gets.find(
      (g) =>
        g.path.startsWith(`${path}/{`) &&
        g.path.split('/').length === path.split('/').length + 1 &&
        (g.op.parameters ?? []).filter((p) => p.in === 'path').length === 2,
    );
    const id = firstId(text);
    if (item && id) await answer('GET', item.path.replace('{consumer_id}', consumer).replace(/\{[^}]+\}$/, id), token);
  }
}

for (const path of ['/consumers', '/integrations', '/webhooks', '/webhooks/list', '/syncs', '/datastores', '/issues']) {
  await answer('GET', path, token);
}

// A fixed series of writes, then the reads that show them.
const accountingConsumer = ids.verticalConsumers.ACCOUNTING ?? consumers[0];
const newConsumer = await answer('POST', '/consumers', token, { name: 'Digest', email: 'digest@example.com' });
const newId = (JSON.parse(newConsumer) as { consumerid?: string }).consumerid;
if (newId) await answer('GET', `/consumers/${newId}`, token);
await answer('POST', `/consumers/${accountingConsumer}/accounting/clients`, token, {
  name: 'Digest client',
  is_company: true,
  currency: 'EUR',
});
await answer('GET', `/consumers/${accountingConsumer}/accounting/clients?page=2&size=5`, token);
await answer('POST', '/webhooks', token, { event: 'account.connection.created', url: 'http://127.0.0.1:9/hook' });
for (const example of ['commerce-webhooks.json']) {
  const document = JSON.parse(readFileSync(new URL(`../examples/fixtures/${example}`, import.meta.url), 'utf8'));
  const loaded = await answer('POST', '/__sandbox/fixtures', token, document);
  for (const consumer of (JSON.parse(loaded) as { consumers?: { consumerid: string }[] }).consumers ?? [])
    await answer('GET', `/consumers/${consumer.consumerid}/connections`, token);
}
await answer('GET', '/__sandbox/requests?limit=20', token);

process.stdout.write(`${lines.join('\n')}\n`);
