import { beforeEach, describe, expect, it } from 'vitest';
import { errors } from '../src/lib/errors.js';
import { verticalFailure } from '../src/resources/consumers/vertical-connection.js';
import { MAX_DATASETS_PER_QUERY } from '../src/resources/datalab/datalab.cubes.js';
import { dateRangeOf, truncate } from '../src/resources/datalab/datalab.domain.js';
import { PublicCubeMetaCube, QueryResponse } from '../src/resources/datalab/datalab.schemas.js';
import { ReleaseItem } from '../src/resources/local-agents/local-agents.schemas.js';
import {
  call,
  expectError,
  expectValidation,
  sandbox,
  sandboxToken,
  type TestSandbox,
  tokenFor,
} from './helpers.js';

/**
 * The Datalab (Cube-style queries over the sandbox's consumers, connections, POS and eCommerce
 * orders and PMS invoices, checked against the vertical APIs' own answers) and the public list of
 * the local agent's releases.
 */

let s: TestSandbox;
let token: string;

beforeEach(async () => {
  s = sandbox();
  token = await sandboxToken(s);
});

const failure = verticalFailure('');
const cents = (n: number) => Math.round(n * 100);
const sum = (values: number[]) => values.reduce((t, v) => t + cents(v), 0) / 100;

async function query(body: unknown, as = token) {
  return call(s.app, 'POST', '/datalab/query-db', { token: as, body });
}

/** The answer as rows keyed by column. */
function rows(body: unknown): Record<string, unknown>[] {
  const parsed = QueryResponse.parse(body);
  const count = parsed.results[0]?.data.length ?? 0;
  return Array.from({ length: count }, (_, i) =>
    Object.fromEntries(parsed.results.map((column) => [column.column, column.data[i]])),
  );
}

// biome-ignore lint/suspicious/noExplicitAny: list items are read field by field
async function allOf(path: string): Promise<any[]> {
  const out: unknown[] = [];
  const sep = path.includes('?') ? '&' : '?';
  for (let page = 1; ; page++) {
    const res = await call(s.app, 'GET', `${path}${sep}page=${page}&size=100`, { token });
    expect(res.status, res.text).toBe(200);
    out.push(...res.body.items);
    if (page * 100 >= res.body.total) break;
  }
  // biome-ignore lint/suspicious/noExplicitAny: as above
  return out as any[];
}

describe('datalab: cube schemas', () => {
  it('lists the cubes with their measures and dimensions', async () => {
    const res = await call(s.app, 'GET', '/datalab/cube-schemas', { token });
    expect(res.status).toBe(200);
    const cubes = (res.body as unknown[]).map((c) => PublicCubeMetaCube.parse(c));
    expect(cubes.map((c) => c.name)).toEqual([
      'consumers',
      'connections',
      'pos_orders',
      'commerce_orders',
      'pms_invoices',
    ]);
    for (const cube of cubes) {
      for (const member of [...(cube.measures ?? []), ...(cube.dimensions ?? [])]) {
        expect(member.name.startsWith(`${cube.name}.`)).toBe(true);
      }
      expect(cube.dimensions?.filter((d) => d.primaryKey)).toHaveLength(1);
    }
    const total = cubes
      .find((c) => c.name === 'pos_orders')
      ?.measures?.find((m) => m.name === 'pos_orders.total');
    expect(total).toMatchObject({ monetary: true, aggType: 'sum', currencyDimension: 'pos_orders.currency' });
    expectError(await call(s.app, 'GET', '/datalab/cube-schemas'), errors.missingToken());
  });
});

describe('datalab: queries', () => {
  it('counts the consumers and connections the caller reaches', async () => {
    const consumers = await call(s.app, 'GET', '/consumers', { token });
    const counted = rows((await query({ measures: ['consumers.count'] })).body);
    expect(counted).toEqual([{ 'consumers.count': consumers.body.length }]);
    const byApi = rows(
      (
        await query({
          measures: ['connections.count'],
          dimensions: ['connections.api', 'connections.status'],
        })
      ).body,
    );
    const world = s.app.services.store.world;
    const ids = new Set((consumers.body as { consumerid: string }[]).map((c) => c.consumerid));
    const expected = Object.values(world.connections).filter((c) => ids.has(c.consumerid)).length;
    expect(sum(byApi.map((r) => r['connections.count'] as number))).toBe(expected);
    expect(byApi.map((r) => r['connections.count'])).toEqual(
      [...byApi.map((r) => r['connections.count'])].sort((a, b) => (b as number) - (a as number)),
    );
  });

  it("POS orders of one consumer agree with the POS API's orders and sales", async () => {
    const consumer = s.ids.verticalConsumers.POS as string;
    const narrow = { member: 'pos_orders.consumer_id', operator: 'equals', values: [consumer] };
    const orders = await allOf(`/consumers/${consumer}/pos/orders`);
    const overall = rows(
      (await query({ measures: ['pos_orders.count', 'pos_orders.total'], filters: [narrow] })).body,
    );
    expect(overall).toEqual([
      { 'pos_orders.count': orders.length, 'pos_orders.total': sum(orders.map((o) => o.total)) },
    ]);
    const byMode = rows(
      (await query({ measures: ['pos_orders.count'], dimensions: ['pos_orders.mode'], filters: [narrow] }))
        .body,
    );
    for (const row of byMode) {
      expect(row['pos_orders.count']).toBe(orders.filter((o) => o.mode === row['pos_orders.mode']).length);
    }
    const december = rows(
      (
        await query({
          measures: ['pos_orders.total'],
          timeDimensions: [
            {
              dimension: 'pos_orders.closing_date',
              granularity: 'day',
              dateRange: ['2025-12-01', '2025-12-31'],
            },
          ],
          filters: [narrow],
        })
      ).body,
    );
    expect(december).toHaveLength(31);
    expect(december[0]?.['pos_orders.closing_date.day']).toBe('2025-12-01T00:00:00.000');
    const sales = await call(
      s.app,
      'GET',
      `/consumers/${consumer}/pos/sales?date_from=2025-12-01&date_to=2025-12-31`,
      { token },
    );
    expect(sum(december.map((r) => r['pos_orders.total'] as number))).toBe(sales.body.total);
    const lastMonth = rows(
      (
        await query({
          measures: ['pos_orders.total'],
          timeDimensions: [{ dimension: 'pos_orders.closing_date', dateRange: 'last month' }],
          filters: [narrow],
        })
      ).body,
    );
    expect(lastMonth[0]?.['pos_orders.total']).toBe(sales.body.total);
  });

  it('filters with and/or and the usual operators, on dimensions and measures', async () => {
    const consumer = s.ids.verticalConsumers.ECOMMERCE as string;
    const orders = await allOf(`/consumers/${consumer}/commerce/orders`);
    const narrow = { member: 'commerce_orders.consumer_id', operator: 'equals', values: [consumer] };
    const count = async (filters: unknown[]) =>
      rows((await query({ measures: ['commerce_orders.count'], filters: [narrow, ...filters] })).body)[0]?.[
        'commerce_orders.count'
      ] ?? 0;
    const shipped = orders.filter((o) => o.status === 'shipped').length;
    expect(await count([{ member: 'commerce_orders.status', operator: 'equals', values: ['shipped'] }])).toBe(
      shipped,
    );
    expect(
      await count([{ member: 'commerce_orders.status', operator: 'notEquals', values: ['shipped'] }]),
    ).toBe(orders.length - shipped);
    expect(
      await count([
        {
          or: [
            { member: 'commerce_orders.status', operator: 'equals', values: ['refunded'] },
            { member: 'commerce_orders.status', operator: 'contains', values: ['CANCEL'] },
          ],
        },
      ]),
    ).toBe(orders.filter((o) => o.status === 'refunded' || o.status.includes('cancel')).length);
    expect(
      await count([{ member: 'commerce_orders.created_on', operator: 'beforeDate', values: ['2025-06-01'] }]),
    ).toBe(orders.filter((o) => o.created_on < '2025-06-01').length);
    expect(
      await count([
        {
          member: 'commerce_orders.created_on',
          operator: 'inDateRange',
          values: ['2025-06-01', '2025-06-30'],
        },
      ]),
    ).toBe(orders.filter((o) => o.created_on.startsWith('2025-06')).length);
    expect(await count([{ member: 'commerce_orders.shipping_country', operator: 'set' }])).toBe(
      orders.length,
    );
    const big = rows(
      (
        await query({
          measures: ['commerce_orders.count'],
          dimensions: ['commerce_orders.status'],
          filters: [narrow, { member: 'commerce_orders.count', operator: 'gt', values: ['5'] }],
        })
      ).body,
    );
    expect(big.every((r) => (r['commerce_orders.count'] as number) > 5)).toBe(true);
    expect(big.length).toBeGreaterThan(0);
  });

  it('orders, limits and offsets; reads rows ungrouped', async () => {
    const consumer = s.ids.verticalConsumers.PMS as string;
    const narrow = { member: 'pms_invoices.consumer_id', operator: 'equals', values: [consumer] };
    const base = {
      measures: ['pms_invoices.total'],
      dimensions: ['pms_invoices.invoice_id'],
      filters: [narrow],
    };
    const sorted = rows((await query({ ...base, order: { 'pms_invoices.total': 'asc' } })).body);
    const totals = sorted.map((r) => r['pms_invoices.total'] as number);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    const page = rows(
      (await query({ ...base, order: [['pms_invoices.total', 'asc']], limit: 3, offset: 2 })).body,
    );
    expect(page).toEqual(sorted.slice(2, 5));
    const items = rows(
      (await query({ ...base, order: [{ member: 'pms_invoices.total', desc: true }], limit: 1 })).body,
    );
    expect(items[0]?.['pms_invoices.total']).toBe(Math.max(...totals));
    const ungrouped = rows(
      (
        await query({
          measures: ['pms_invoices.count'],
          dimensions: ['pms_invoices.location_id'],
          filters: [narrow],
          ungrouped: true,
        })
      ).body,
    );
    expect(ungrouped).toHaveLength(sorted.length);
    expect(ungrouped.every((r) => r['pms_invoices.count'] === 1)).toBe(true);
  });

  it('sees only what the key reaches: a restricted key one consumer, an MCP token its consumer', async () => {
    const restricted = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.restricted });
    const mine = rows((await query({ measures: ['consumers.count'] }, restricted)).body);
    expect(mine).toEqual([{ 'consumers.count': 1 }]);
    const mcp = await call(s.app, 'POST', '/mcp-token', {
      token,
      body: {
        accountId: s.ids.accountId,
        ...s.ids.sandbox,
        consumerId: s.ids.verticalConsumers.POS,
        scopes: ['pos.datalab'],
      },
    });
    expect(mcp.status, mcp.text).toBe(200);
    const bound = rows(
      (
        await query(
          { measures: ['consumers.count'], dimensions: ['consumers.consumer_id'] },
          mcp.body.access_token,
        )
      ).body,
    );
    expect(bound).toEqual([{ 'consumers.consumer_id': s.ids.verticalConsumers.POS, 'consumers.count': 1 }]);
    const other = await call(s.app, 'POST', '/mcp-token', {
      token,
      body: {
        accountId: s.ids.accountId,
        ...s.ids.sandbox,
        consumerId: s.ids.verticalConsumers.POS,
        scopes: ['pos.read'],
      },
    });
    expectError(
      await query({ measures: ['consumers.count'] }, other.body.access_token),
      errors.scopeDenied([]),
    );
  });

  it.each([
    [{ measures: ['nope.count'] }, /Unknown member 'nope.count'/],
    [{ measures: ['pos_orders.nope'] }, /Unknown member 'pos_orders.nope'/],
    [{ measures: ['pos_orders.count'], dimensions: ['consumers.name'] }, /A query reads one cube/],
    [{ measures: ['pos_orders.mode'] }, /is a dimension, not a measure/],
    [{ dimensions: ['pos_orders.total'] }, /is a measure, not a dimension/],
    [{}, /asks for nothing/],
    [
      {
        measures: ['consumers.count'],
        filters: [{ member: 'consumers.name', operator: 'like', values: ['x'] }],
      },
      /Unknown filter operator 'like'/,
    ],
    [
      { measures: ['consumers.count'], filters: [{ member: 'consumers.name', operator: 'equals' }] },
      /needs values/,
    ],
    [
      {
        measures: ['consumers.count'],
        filters: [{ member: 'consumers.name', operator: 'gt', values: ['a'] }],
      },
      /needs numbers/,
    ],
    [
      {
        measures: ['consumers.count'],
        filters: [{ member: 'consumers.name', operator: 'beforeDate', values: ['2025-01-01'] }],
      },
      /applies to time dimensions/,
    ],
    [
      { measures: ['consumers.count'], timeDimensions: [{ dimension: 'consumers.name' }] },
      /is not a time dimension/,
    ],
    [
      {
        measures: ['consumers.count'],
        timeDimensions: [{ dimension: 'consumers.created_on', granularity: 'fortnight' }],
      },
      /Unknown granularity/,
    ],
    [
      {
        measures: ['consumers.count'],
        timeDimensions: [{ dimension: 'consumers.created_on', dateRange: 'next century' }],
      },
      /Unknown date range/,
    ],
    [
      {
        measures: ['consumers.count'],
        timeDimensions: [{ dimension: 'consumers.created_on', dateRange: ['2025-12-01', '2025-01-01'] }],
      },
      /ends .* before it starts/,
    ],
    [
      {
        measures: ['consumers.count'],
        timeDimensions: [
          { dimension: 'consumers.created_on', compareDateRange: [['2025-01-01', '2025-01-31']] },
        ],
      },
      /compareDateRange is not supported/,
    ],
    [{ measures: ['consumers.count'], timezone: 'Europe/Brussels' }, /Only UTC/],
    [{ measures: ['consumers.count'], segments: ['consumers.active'] }, /Unknown segment/],
    [{ measures: ['consumers.count'], limit: 50001 }, /limit must be between 1 and 50000/],
    [{ measures: ['consumers.count'], offset: -1 }, /offset cannot be negative/],
    [{ measures: ['consumers.count'], order: { 'consumers.name': 'asc' } }, /not a column of the answer/],
    [
      {
        measures: ['consumers.count'],
        filters: [{ or: [{ member: 'consumers.count', operator: 'gt', values: ['1'] }] }],
      },
      /go at the top level/,
    ],
  ])('refuses %j with 400', async (body, detail) => {
    const res = await query(body);
    expectError(res, failure);
    expect(res.body.detail).toMatch(detail);
  });

  it('validates the body (422)', async () => {
    expectValidation(await query({ measures: 'consumers.count' }), ['body', 'measures']);
    expectValidation(await query({ measures: ['consumers.count'], limit: 1.5 }), ['body', 'limit']);
    expectValidation(await query({ filters: [{ member: 'x' }] }), ['body', 'filters', 0]);
  });

  it(`reads at most ${MAX_DATASETS_PER_QUERY} datasets at once, unless narrowed to consumers`, async () => {
    const created: string[] = [];
    for (let i = 0; i < MAX_DATASETS_PER_QUERY; i++) {
      const consumer = await call(s.app, 'POST', '/consumers', { token, body: { name: `Shop ${i}` } });
      created.push(consumer.body.consumerid);
      const link = await call(s.app, 'POST', `/consumers/${consumer.body.consumerid}/connections`, {
        token,
        body: { integrationid: 9000, credentials: [{ key: 'token', value: 't' }] },
      });
      expect(link.status).toBe(200);
    }
    const res = await query({ measures: ['pos_orders.count'] });
    expectError(res, failure);
    expect(res.body.detail).toMatch(/at most 50 at once: filter on pos_orders.consumer_id/);
    const narrowed = await query({
      measures: ['pos_orders.count'],
      filters: [{ member: 'pos_orders.consumer_id', operator: 'equals', values: created.slice(0, 2) }],
    });
    expect(narrowed.status).toBe(200);
    expect(Object.keys(s.app.services.store.world.pos_datasets)).toHaveLength(2);
  });
});

describe('datalab: date helpers', () => {
  const now = new Date('2026-01-15T09:00:00Z');
  it.each([
    ['today', ['2026-01-15T00:00:00.000Z', '2026-01-15T23:59:59.999Z']],
    ['yesterday', ['2026-01-14T00:00:00.000Z', '2026-01-14T23:59:59.999Z']],
    ['this week', ['2026-01-12T00:00:00.000Z', '2026-01-18T23:59:59.999Z']],
    ['last month', ['2025-12-01T00:00:00.000Z', '2025-12-31T23:59:59.999Z']],
    ['last quarter', ['2025-10-01T00:00:00.000Z', '2025-12-31T23:59:59.999Z']],
    ['last 7 days', ['2026-01-08T00:00:00.000Z', '2026-01-14T23:59:59.999Z']],
    ['This Year', ['2026-01-01T00:00:00.000Z', '2026-12-31T23:59:59.999Z']],
  ])('%s', (range, expected) => {
    expect(dateRangeOf(range, now)).toEqual(expected);
  });

  it('truncates to hours, weeks (Mondays), quarters', () => {
    expect(truncate('2026-01-15T09:42:00Z', 'hour')).toBe('2026-01-15T09:00:00.000');
    expect(truncate('2026-01-15T09:42:00Z', 'week')).toBe('2026-01-12T00:00:00.000');
    expect(truncate('2025-11-30T09:42:00Z', 'quarter')).toBe('2025-10-01T00:00:00.000');
  });
});

describe('local agents: releases', () => {
  it('lists the releases of a connector, newest first, without a token', async () => {
    for (const connector of ['cockpit', '90102']) {
      const res = await call(s.app, 'GET', `/local-agents/releases?connector=${connector}`);
      expect(res.status).toBe(200);
      const releases = (res.body as unknown[]).map((r) => ReleaseItem.parse(r));
      expect(releases.length).toBeGreaterThan(1);
      const versions = releases.map((r) => r.version.split('.').map(Number));
      expect(versions[0]?.[0]).toBeGreaterThanOrEqual(versions[1]?.[0] ?? 0);
      expect(releases.every((r) => r.downloadUrl.endsWith(r.fileName))).toBe(true);
    }
    expect((await call(s.app, 'GET', '/local-agents/releases?connector=1000')).body).toEqual([]);
  });

  it.each(['connector=desktop', 'connector=', ''])('validates the connector (422): %s', async (q) => {
    expectValidation(await call(s.app, 'GET', `/local-agents/releases?${q}`), ['query', 'connector']);
  });
});
