import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { seedDirectory, VERTICAL_SHOWCASE } from '../../src/control/seeded-world.js';
import { type RunningProxy, startProxy } from '../../src/proxy/index.js';
import { VERTICALS } from '../../src/verticals.js';
import { type Listening, listenOn } from '../helpers.js';

/**
 * The proxy in front of a sandbox (the upstream is a sandbox served on a port): a crawl of every read
 * operation of the served document, and the writes docs/verticals.md walks through, find nothing.
 * The sandbox agrees with itself and with its document: a finding here is a defect of the checks.
 */

const SEED = 1;
const ids = seedDirectory(SEED);
type Json = Record<string, unknown>;

let upstream: Listening;
let proxy: RunningProxy;
let token: string;

beforeAll(async () => {
  upstream = await listenOn(createApp({ seed: SEED, connectionLife: 'off' }));
  proxy = await startProxy({ upstream: upstream.origin, seed: SEED });
  const res = await fetch(`${proxy.url}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accountId: ids.accountId, ...ids.sandbox }),
  });
  token = ((await res.json()) as { access_token: string }).access_token;
});

afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

async function get(path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${proxy.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text };
}

async function post(path: string, body: unknown): Promise<number> {
  const res = await fetch(`${proxy.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.text();
  return res.status;
}

const consumerOf = (area: string | undefined): string => {
  const module = VERTICALS.find((candidate) => candidate.key === area);
  const showcase = VERTICAL_SHOWCASE.find((entry) => entry.api === module?.api) ?? VERTICAL_SHOWCASE[0];
  return ids.verticalConsumers[showcase?.envName as string] as string;
};

/** The first id of a list answer (a page's items or an array). */
function firstId(body: unknown): string | null {
  const items = Array.isArray(body) ? body : ((body as Json | null)?.items as unknown[] | undefined);
  const first = items?.[0] as Json | undefined;
  const id = first?.id ?? first?.consumerid ?? first?.connectionid ?? first?.webhookid ?? first?.syncid;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
}

/** Every GET of the document whose parameters a crawl can fill: the path's ids from the lists above it. */
async function crawl(document: Json): Promise<number> {
  let calls = 0;
  const paths = Object.entries(document.paths as Record<string, Record<string, Json>>);
  for (const [template, item] of paths) {
    const operation = item.get;
    if (!operation) continue;
    const parameters = (operation.parameters ?? []) as Json[];
    if (parameters.some((p) => p.in === 'query' && p.required === true)) continue;
    const segments = template.split('/');
    const area = segments[1] === 'consumers' ? segments[3] : undefined;
    let path = '';
    let prefix = '';
    let filled = true;
    for (const segment of segments.slice(1)) {
      if (segment === '{consumer_id}') path += `/${consumerOf(area)}`;
      else if (segment.startsWith('{')) {
        // The id from the list above it, when the document has that list.
        if (!(document.paths as Record<string, Json>)[prefix]?.get) {
          filled = false;
          break;
        }
        const list = await get(path);
        calls += 1;
        const id = list.status === 200 ? firstId(list.body) : null;
        if (id === null) {
          filled = false;
          break;
        }
        path += `/${encodeURIComponent(id)}`;
      } else path += `/${segment}`;
      prefix += `/${segment}`;
    }
    if (!filled) continue;
    await get(path);
    calls += 1;
  }
  return calls;
}

const accountingLine = (line_number: number, quantity: number, unit_price: number) => {
  const untaxed = quantity * unit_price;
  return {
    line_number,
    quantity,
    unit_price,
    untaxed_amount: untaxed,
    tax_rate: 21,
    tax_amount: Math.round(untaxed * 21) / 100,
    total: Math.round(untaxed * 121) / 100,
    account_number: '700000',
    tax_code: '9227d984-3697-4ee4-913c-4683d8e0e8af',
    analytic_account: 'd5426912-7972-40c7-9b0b-c6f2c42a67c1',
  };
};

const shopAddress = {
  first_name: 'Elizabeth',
  last_name: 'Schaefer',
  street: 'Allée Little',
  number: '709',
  city: 'Bruxelles',
  postal_code: '1050',
  country: 'BE',
};

/** The writes of docs/verticals.md ("A complete write per vertical, tried"). */
const VERTICALS_GUIDE_WRITES: [string, unknown][] = [
  [
    '/consumers/e1ffa9f3-5f5a-4656-993c-7c37aa444c65/accounting/invoices',
    {
      invoice_type: 'customer_invoice',
      status: 'posted',
      currency: 'EUR',
      invoice_date: '2026-01-15',
      due_date: '2026-02-14',
      partner_id: '8dc83e96-28f9-4efb-8d9a-d3c2e5cfdc1e',
      journal_id: 'e3da7c94-4ddd-4a81-b1e3-5643df5e125a',
      payment_term_id: 'a50b03f5-cef2-4b28-8970-a8c24bfb4383',
      reference: 'PO-2026-118',
      untaxed_amount: 1260,
      tax_amount: 264.6,
      total: 1524.6,
      lines: [accountingLine(1, 12, 85), accountingLine(2, 1, 240)],
    },
  ],
  [
    '/consumers/6ba01816-7eab-4f0b-b541-d00215dea0d5/invoicing/invoices',
    {
      invoice_type: 'customer_invoice',
      status: 'posted',
      currency: 'EUR',
      invoice_date: '2026-01-15',
      due_date: '2026-02-14',
      partner_id: 'c8fe29dd-43df-4356-a273-b93662b47a75',
      reference: 'Order 2026-118',
      untaxed_amount: 285,
      tax_amount: 57,
      total: 342,
      lines: [
        {
          product_id: '5fcf5523-0809-4256-b53b-1b7c7b97d7b7',
          quantity: 3,
          unit_price: 95,
          untaxed_amount: 285,
          tax_rate: 20,
          tax_amount: 57,
          total: 342,
          tax_id: 'ace9683d-5e79-4e72-a4bf-0293e9b44f6f',
        },
      ],
    },
  ],
  [
    '/consumers/13ccc966-c428-458b-b0eb-a54157ab77f1/pos/customers',
    {
      first_name: 'Camille',
      last_name: 'Lambert',
      phone: '+33 6 12 34 56 78',
      email: 'camille.lambert@mail.example',
      address: {
        name: 'Home',
        street: 'Rue de la République',
        number: '21',
        city: 'Paris',
        postal_code: '75011',
        country: 'FR',
      },
    },
  ],
  [
    '/consumers/3971563e-e00b-40fd-84e8-220f9915fa67/commerce/orders',
    {
      customer: { email: 'elizabeth.schaefer84@gmail.com', first_name: 'Elizabeth', last_name: 'Schaefer' },
      billing_address: shopAddress,
      shipping_address: shopAddress,
      currency: 'EUR',
      note: 'Gift wrapping, please',
      lines: [
        { variant_id: '815b597b-9d41-4603-a572-f2fa4f85556b', quantity: 2, tax_rate: 21, unit_price: 16.5 },
      ],
      payment_method: '044a018d-84d1-43b7-abdf-a189aa4fa652',
    },
  ],
];

describe('the proxy in front of a sandbox', () => {
  it('finds no drift in a crawl of every read operation and the writes of the verticals guide', async () => {
    const document = (await (await fetch(`${upstream.origin}/openapi.json`)).json()) as Json;
    const calls = await crawl(document);
    expect(calls).toBeGreaterThan(100);
    // docs/verticals.md: its complete writes, as it gives them (ids of the world of seed 1).
    for (const [path, body] of VERTICALS_GUIDE_WRITES) expect(await post(path, body)).toBe(200);
    const pos = consumerOf('pos');
    // What the writes made, read back.
    expect((await get(`/consumers/${pos}/pos/customers?size=100`)).status).toBe(200);
    // Refusals the service and the sandbox must word alike.
    expect((await get('/consumers/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await get(`/consumers/${pos}/pos/orders?page=0`)).status).toBe(422);
    const report = await proxy.report();
    expect(report.findings).toEqual([]);
    const replayed = report.summary.reduce((n, entry) => n + entry.replayed, 0);
    const agreeing = report.summary.reduce((n, entry) => n + entry.agreeing, 0);
    expect(replayed).toBeGreaterThan(100);
    expect(agreeing).toBe(replayed);
  });
});
