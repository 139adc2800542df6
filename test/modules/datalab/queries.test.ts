import { beforeEach, describe, expect, it, vi } from 'vitest';
import { errors } from '../../../src/lib/errors.js';
import { dateRangeOf, localClockOf, truncate } from '../../../src/modules/datalab/datalab.domain.js';
import { PublicCubeMetaCube, QueryResponse } from '../../../src/modules/datalab/datalab.schemas.js';
import { ReleaseItem } from '../../../src/modules/local-agents/local-agents.schemas.js';
import { verticalFailure } from '../../../src/platform/vertical-connection.js';
import {
  call,
  expectError,
  expectValidation,
  sandbox,
  sandboxToken,
  type TestSandbox,
  tokenFor,
} from '../../helpers.js';

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
    // The axes dimensions are aligned on in a joined query: consumers, connections, currencies, time.
    const pos = cubes.find((c) => c.name === 'pos_orders');
    const axis = (name: string) => pos?.dimensions?.find((d) => d.name === `pos_orders.${name}`)?.alignAxis;
    expect([axis('consumer_id'), axis('connection_id'), axis('currency'), axis('closing_date')]).toEqual([
      'consumer_id',
      'connection_id',
      'currency',
      'date',
    ]);
    expect([axis('order_id'), axis('mode')]).toEqual([null, null]);
    expect(pos?.measures?.every((m) => m.alignAxis === null)).toBe(true);
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
    // A measure filtered on without being selected, and measures in and/or conditions.
    const byStatus = rows(
      (
        await query({
          measures: ['commerce_orders.count'],
          dimensions: ['commerce_orders.status'],
          filters: [narrow],
        })
      ).body,
    );
    const hidden = rows(
      (
        await query({
          dimensions: ['commerce_orders.status'],
          filters: [narrow, { member: 'commerce_orders.count', operator: 'gt', values: ['5'] }],
        })
      ).body,
    );
    expect(hidden.map((r) => r['commerce_orders.status']).sort()).toEqual(
      big.map((r) => r['commerce_orders.status']).sort(),
    );
    expect(Object.keys(hidden[0] ?? {})).toEqual(['commerce_orders.status']);
    const either = rows(
      (
        await query({
          measures: ['commerce_orders.count'],
          dimensions: ['commerce_orders.status'],
          filters: [
            narrow,
            {
              or: [
                { member: 'commerce_orders.count', operator: 'lt', values: ['3'] },
                { member: 'commerce_orders.count', operator: 'gt', values: ['20'] },
              ],
            },
          ],
        })
      ).body,
    );
    const expected = byStatus.filter((r) => {
      const n = r['commerce_orders.count'] as number;
      return n < 3 || n > 20;
    });
    expect(either.map((r) => r['commerce_orders.status']).sort()).toEqual(
      expected.map((r) => r['commerce_orders.status']).sort(),
    );
  });

  it('takes what Cube takes: a backwards date range (nothing matches), any IANA time zone, seconds and minutes', async () => {
    const backwards = await query({
      measures: ['consumers.count'],
      timeDimensions: [{ dimension: 'consumers.created_on', dateRange: ['2025-12-01', '2025-01-01'] }],
    });
    expect(backwards.status, backwards.text).toBe(200);
    expect(rows(backwards.body)).toEqual([{ 'consumers.count': 0 }]);
    const none = await query({
      measures: ['consumers.count'],
      timeDimensions: [{ dimension: 'consumers.created_on', dateRange: 'last 0 days' }],
    });
    expect(rows(none.body)).toEqual([{ 'consumers.count': 0 }]);
    const consumer = s.ids.verticalConsumers.POS as string;
    const narrow = { member: 'pos_orders.consumer_id', operator: 'equals', values: [consumer] };
    const byMinute = rows(
      (
        await query({
          measures: ['pos_orders.count'],
          timeDimensions: [
            {
              dimension: 'pos_orders.closing_date',
              granularity: 'minute',
              dateRange: ['2026-01-10', '2026-01-10'],
            },
          ],
          filters: [narrow],
        })
      ).body,
    );
    expect(byMinute.length).toBeGreaterThan(0);
    expect(
      byMinute.every((r) => /T\d{2}:\d{2}:00\.000$/.test(String(r['pos_orders.closing_date.minute']))),
    ).toBe(true);
    // In Brussels (UTC+1 in January) the days and hours are local: an order closed at 23:30 UTC on
    // the 9th belongs to the 10th, and every bucket is one hour later than in UTC.
    const orders = await allOf(
      `/consumers/${consumer}/pos/orders?state=closed&date_from=2026-01-08&date_to=2026-01-11`,
    );
    const localDay = (instant: string) =>
      new Date(Date.parse(instant) + 3_600_000).toISOString().slice(0, 10);
    const inBrussels = rows(
      (
        await query({
          measures: ['pos_orders.count'],
          timeDimensions: [
            {
              dimension: 'pos_orders.closing_date',
              granularity: 'day',
              dateRange: ['2026-01-09', '2026-01-10'],
            },
          ],
          filters: [narrow],
          timezone: 'Europe/Brussels',
        })
      ).body,
    );
    for (const day of ['2026-01-09', '2026-01-10']) {
      const row = inBrussels.find((r) => r['pos_orders.closing_date.day'] === `${day}T00:00:00.000`);
      expect(row?.['pos_orders.count']).toBe(orders.filter((o) => localDay(o.closing_date) === day).length);
    }
    const raw = rows(
      (
        await query({
          dimensions: ['pos_orders.order_id', 'pos_orders.closing_date'],
          filters: [narrow, { member: 'pos_orders.closing_date', operator: 'set' }],
          limit: 1,
          timezone: 'Europe/Brussels',
        })
      ).body,
    )[0];
    const order = (await allOf(`/consumers/${consumer}/pos/orders?state=closed`)).find(
      (o) => o.id === raw?.['pos_orders.order_id'],
    );
    expect(raw?.['pos_orders.closing_date']).toBe(
      new Date(Date.parse(order.closing_date) + 3_600_000).toISOString().slice(0, 23),
    );
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
        timeDimensions: [
          { dimension: 'consumers.created_on', compareDateRange: [['2025-01-01', '2025-01-31']] },
        ],
      },
      /compareDateRange is not supported/,
    ],
    [
      { measures: ['consumers.count'], timezone: 'Mars/Olympus_Mons' },
      /Unknown time zone 'Mars\/Olympus_Mons'/,
    ],
    [{ measures: ['consumers.count'], segments: ['consumers.active'] }, /Unknown segment/],
    [{ measures: ['consumers.count'], limit: 50001 }, /limit must be between 0 and 50000/],
    [{ measures: ['consumers.count'], offset: -1 }, /offset cannot be negative/],
    [{ measures: ['consumers.count'], order: { 'consumers.name': 'asc' } }, /not a column of the answer/],
    [
      {
        measures: ['consumers.count'],
        filters: [
          {
            or: [
              { member: 'consumers.count', operator: 'gt', values: ['1'] },
              { member: 'consumers.name', operator: 'equals', values: ['x'] },
            ],
          },
        ],
      },
      /cannot mix dimensions and measures/,
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

  it('reads the datasets of every connection reached; a consumer_id filter reads only theirs', async () => {
    const created: string[] = [];
    for (let i = 0; i < 51; i++) {
      const consumer = await call(s.app, 'POST', '/consumers', { token, body: { name: `Shop ${i}` } });
      created.push(consumer.body.consumerid);
      const link = await call(s.app, 'POST', `/consumers/${consumer.body.consumerid}/connections`, {
        token,
        body: { integrationid: 9000, credentials: [{ key: 'token', value: 't' }] },
      });
      expect(link.status).toBe(200);
    }
    // Datasets are read in passing (peek): none is kept, so the reads are counted as they happen.
    const store = s.app.services.store;
    const peek = vi.spyOn(store, 'peek');
    const read = () => peek.mock.calls.filter(([collection]) => collection === 'pos_datasets').length;
    const narrowed = await query({
      measures: ['pos_orders.count'],
      filters: [{ member: 'pos_orders.consumer_id', operator: 'equals', values: created.slice(0, 2) }],
    });
    expect(narrowed.status).toBe(200);
    expect(read()).toBe(2);
    const res = await query({ measures: ['pos_orders.count'] });
    expect(res.status, res.text).toBe(200);
    expect(read() - 2).toBeGreaterThan(51);
    expect(store.world.pos_datasets).toEqual({});
  });
});

describe('datalab: joined queries (POST /datalab/query-groups-join)', () => {
  const join = (body: unknown, as = token) =>
    call(s.app, 'POST', '/datalab/query-groups-join', { token: as, body });
  const narrowTo = (cube: string, consumer: string) => ({
    member: `${cube}.consumer_id`,
    operator: 'equals',
    values: [consumer],
  });

  it('joins the answers of several cubes on aligned time buckets, full outer, axis first', async () => {
    const pos = s.ids.verticalConsumers.POS as string;
    const shop = s.ids.verticalConsumers.ECOMMERCE as string;
    const range = ['2025-10-01', '2025-12-31'];
    const posQuery = {
      measures: ['pos_orders.total', 'pos_orders.count'],
      timeDimensions: [{ dimension: 'pos_orders.closing_date', granularity: 'month', dateRange: range }],
      filters: [narrowTo('pos_orders', pos)],
    };
    const shopQuery = {
      measures: ['commerce_orders.count'],
      timeDimensions: [{ dimension: 'commerce_orders.created_on', granularity: 'month', dateRange: range }],
      filters: [narrowTo('commerce_orders', shop)],
    };
    const res = await join({
      queries: [posQuery, shopQuery],
      align: [['pos_orders.closing_date.month', 'commerce_orders.created_on.month']],
    });
    expect(res.status, res.text).toBe(200);
    const answer = QueryResponse.parse(res.body);
    expect(answer.results.map((r) => [r.column, r.type])).toEqual([
      ['date', 'time'],
      ['pos_orders.total', 'number'],
      ['pos_orders.count', 'number'],
      ['commerce_orders.count', 'number'],
    ]);
    const joined = rows(res.body);
    expect(joined.map((r) => r.date)).toEqual([
      '2025-10-01T00:00:00.000',
      '2025-11-01T00:00:00.000',
      '2025-12-01T00:00:00.000',
    ]);
    const alone = (body: unknown) => query(body).then((r) => rows(r.body));
    const posRows = await alone(posQuery);
    const shopRows = await alone(shopQuery);
    for (const row of joined) {
      const p = posRows.find((r) => r['pos_orders.closing_date.month'] === row.date);
      const c = shopRows.find((r) => r['commerce_orders.created_on.month'] === row.date);
      expect(row['pos_orders.total']).toBe(p?.['pos_orders.total'] ?? null);
      expect(row['pos_orders.count']).toBe(p?.['pos_orders.count'] ?? null);
      expect(row['commerce_orders.count']).toBe(c?.['commerce_orders.count'] ?? null);
    }
    expect(answer.meta?.monetary_measures).toEqual(['pos_orders.total']);
    const currencies = [
      ...((await query(posQuery)).body.meta.currency as string[]),
      ...((await query(shopQuery)).body.meta.currency as string[]),
    ];
    expect(answer.meta?.currency).toEqual([...new Set(currencies)].sort());
  });

  it('keeps the rows that match nothing, with empty cells; a query without the axis joins every row', async () => {
    const consumers = (await call(s.app, 'GET', '/consumers', { token })).body as { consumerid: string }[];
    const res = await join({
      queries: [
        { measures: ['consumers.count'], dimensions: ['consumers.consumer_id'] },
        { measures: ['pos_orders.count'], dimensions: ['pos_orders.consumer_id'] },
        { measures: ['connections.count'] },
      ],
      align: [['consumers.consumer_id', 'pos_orders.consumer_id', null]],
    });
    expect(res.status, res.text).toBe(200);
    const joined = rows(res.body);
    expect(joined.map((r) => r.consumer_id)).toEqual(consumers.map((c) => c.consumerid).sort());
    const totalConnections = rows((await query({ measures: ['connections.count'] })).body)[0]?.[
      'connections.count'
    ];
    for (const row of joined) {
      expect(row['consumers.count']).toBe(1);
      expect(row['connections.count']).toBe(totalConnections);
      if (row.consumer_id === s.ids.verticalConsumers.POS)
        expect(row['pos_orders.count']).toBeGreaterThan(300);
      if (row.consumer_id === s.ids.verticalConsumers.PMS) expect(row['pos_orders.count']).toBeNull();
    }
  });

  it('without align, joins every row with every row; a column name taken twice gets its query index', async () => {
    const res = await join({
      queries: [{ measures: ['consumers.count'] }, { measures: ['consumers.count', 'connections.count'] }],
    });
    // Two cubes in one query: that query is refused, named by its index.
    expectError(res, failure);
    expect(res.body.detail).toMatch(/^queries\[1\]: A query reads one cube/);
    const twice = await join({
      queries: [
        { measures: ['consumers.count'] },
        {
          measures: ['consumers.count'],
          filters: [{ member: 'consumers.consumer_id', operator: 'equals', values: ['nobody'] }],
        },
        { measures: ['connections.count'] },
      ],
    });
    expect(twice.status, twice.text).toBe(200);
    const [row] = rows(twice.body);
    expect(Object.keys(row ?? {})).toEqual(['consumers.count', 'consumers.count_1', 'connections.count']);
    expect(row?.['consumers.count_1']).toBe(0);
    expect(row?.['consumers.count']).toBeGreaterThan(0);
  });

  it.each([
    [
      { queries: [{ measures: ['consumers.count'] }], align: [['consumers.consumer_id', null]] },
      /one per query \(1\)/,
    ],
    [
      { queries: [{ measures: ['consumers.count'] }], align: [['consumers.count']] },
      /'consumers.count' is not a dimension of the answer of queries\[0\]/,
    ],
    [
      { queries: [{ measures: ['consumers.count'] }], align: [['consumers.consumer_id']] },
      /'consumers.consumer_id' is not a dimension of the answer/,
    ],
    [
      {
        queries: [{ measures: ['pos_orders.count'], dimensions: ['pos_orders.mode'] }],
        align: [['pos_orders.mode']],
      },
      /'pos_orders.mode' declares no alignAxis/,
    ],
    [
      {
        queries: [
          { measures: ['pos_orders.count'], dimensions: ['pos_orders.currency'] },
          { measures: ['commerce_orders.count'], dimensions: ['commerce_orders.consumer_id'] },
        ],
        align: [['pos_orders.currency', 'commerce_orders.consumer_id']],
      },
      /on the axis 'consumer_id', not 'currency'/,
    ],
    [
      {
        queries: [{ measures: ['consumers.count'] }, { measures: ['connections.count'] }],
        align: [[null, null]],
      },
      /align\[0\] names no column/,
    ],
    [
      {
        queries: [{ measures: ['consumers.count'], dimensions: ['consumers.consumer_id'] }],
        align: [['consumers.consumer_id'], ['consumers.consumer_id']],
      },
      /align\[1\]: the axis 'consumer_id' is already aligned by align\[0\]/,
    ],
    [
      { queries: [{ measures: ['consumers.count'] }, { measures: ['nope.count'] }] },
      /^queries\[1\]: Unknown member/,
    ],
  ])('refuses %j with 400', async (body, detail) => {
    const res = await join(body);
    expectError(res, failure);
    expect(res.body.detail).toMatch(detail);
  });

  it('validates the body (422): one to five queries, lists of names or nulls', async () => {
    const one = { measures: ['consumers.count'] };
    expectValidation(await join({}), ['body', 'queries'], 'missing');
    expectValidation(await join({ queries: [] }), ['body', 'queries']);
    expectValidation(await join({ queries: [one, one, one, one, one, one] }), ['body', 'queries']);
    expectValidation(await join({ queries: [{ measures: 'consumers.count' }] }), [
      'body',
      'queries',
      0,
      'measures',
    ]);
    expectValidation(await join({ queries: [one], align: ['consumers.consumer_id'] }), ['body', 'align', 0]);
    const five = await join({ queries: [one, one, one, one, one] });
    expect(five.status, five.text).toBe(200);
    expect(QueryResponse.parse(five.body).results).toHaveLength(5);
  });

  it('needs a token with a datalab scope', async () => {
    expectError(
      await call(s.app, 'POST', '/datalab/query-groups-join', {
        body: { queries: [{ measures: ['consumers.count'] }] },
      }),
      errors.missingToken(),
    );
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

  it('reads a date range in a time zone; a backwards one stays backwards (it matches nothing)', () => {
    const brussels = localClockOf('Europe/Brussels');
    expect(brussels('2026-01-14T23:30:00.000Z')).toBe('2026-01-15T00:30:00.000Z');
    expect(brussels('2026-07-14T23:30:00.000Z')).toBe('2026-07-15T01:30:00.000Z');
    expect(dateRangeOf('today', new Date(brussels('2026-01-14T23:30:00Z')), brussels)).toEqual([
      '2026-01-15T00:00:00.000Z',
      '2026-01-15T23:59:59.999Z',
    ]);
    expect(dateRangeOf(['2026-01-10T10:00:00+02:00', '2026-01-10T12:00:00'], now, brussels)).toEqual([
      '2026-01-10T09:00:00.000Z',
      '2026-01-10T12:00:00.000Z',
    ]);
    expect(dateRangeOf(['2026-01-10', '2026-01-01'], now)).toEqual([
      '2026-01-10T00:00:00.000Z',
      '2026-01-01T23:59:59.999Z',
    ]);
    expect(localClockOf('UTC')('2026-01-14T23:30:00.000Z')).toBe('2026-01-14T23:30:00.000Z');
  });

  it('truncates to seconds, minutes, hours, weeks (Mondays), quarters', () => {
    expect(truncate('2026-01-15T09:42:17.250Z', 'second')).toBe('2026-01-15T09:42:17.000');
    expect(truncate('2026-01-15T09:42:17.250Z', 'minute')).toBe('2026-01-15T09:42:00.000');
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
