import { beforeEach, describe, expect, it } from 'vitest';
import { errors } from '../../../src/lib/errors.js';
import { QueryResponse } from '../../../src/modules/datalab/datalab.schemas.js';
import { call, expectError, sandbox, sandboxToken, type TestSandbox } from '../../helpers.js';

/**
 * What a Datalab query may spend and what it leaves behind: past the budget of a request it stops
 * with a 400 and writes nothing, other requests are answered while it runs, and it reads the POS
 * datasets in passing (due open orders shown closed, no order completed, no event published).
 */

let s: TestSandbox;
let token: string;

beforeEach(async () => {
  s = sandbox();
  token = await sandboxToken(s);
});

const query = (body: unknown, path = '/datalab/query-db') => call(s.app, 'POST', path, { token, body });

/** The answer as rows keyed by column. */
function rows(body: unknown): Record<string, unknown>[] {
  const parsed = QueryResponse.parse(body);
  const count = parsed.results[0]?.data.length ?? 0;
  return Array.from({ length: count }, (_, i) =>
    Object.fromEntries(parsed.results.map((column) => [column.column, column.data[i]])),
  );
}

// biome-ignore lint/suspicious/noExplicitAny: list items are read field by field
async function allOrders(app: TestSandbox['app'], consumer: string, as: string): Promise<any[]> {
  const out: unknown[] = [];
  for (let page = 1; ; page++) {
    const res = await call(app, 'GET', `/consumers/${consumer}/pos/orders?page=${page}&size=100`, {
      token: as,
    });
    expect(res.status, res.text).toBe(200);
    out.push(...res.body.items);
    if (page * 100 >= res.body.total) break;
  }
  // biome-ignore lint/suspicious/noExplicitAny: as above
  return out as any[];
}

const advanceClock = async (app: TestSandbox['app'], seconds: number) => {
  const moved = await call(app, 'POST', '/__sandbox/clock', { body: { advance_seconds: seconds } });
  expect(moved.status, moved.text).toBe(200);
};

describe('datalab: the budget of a request', () => {
  it('stops a query past its budget with a 400 that says how to narrow it, and writes nothing', async () => {
    const consumer = s.ids.verticalConsumers.POS as string;
    const narrow = { member: 'pos_orders.consumer_id', operator: 'equals', values: [consumer] };
    const world = JSON.stringify(s.app.services.store.world);

    s.app.services.config.datalabBudget = { rows: 100 };
    const rowsOver = await query({ measures: ['pos_orders.count', 'pos_orders.total'], filters: [narrow] });
    expectError(rowsOver, errors.queryOverBudget('100 rows'));
    expect(rowsOver.body).toEqual(
      errors.queryOverBudget('100 rows', 'pos_orders: more than 100 rows to read').toBody(),
    );
    expect(rowsOver.body.message).toMatch(/\(100 rows\): narrow it with a consumer_id filter or a time/);
    // A join spends one budget; the refusal names the query that went past it.
    const joined = await query(
      { queries: [{ measures: ['consumers.count'] }, { measures: ['pos_orders.count'], filters: [narrow] }] },
      '/datalab/query-groups-join',
    );
    expectError(joined, errors.queryOverBudget('100 rows'));
    expect(joined.body.detail).toBe('queries[1]: pos_orders: more than 100 rows to read');

    s.app.services.config.datalabBudget = { groups: 3 };
    const groupsOver = await query({
      measures: ['pos_orders.total'],
      dimensions: ['pos_orders.order_id'],
      filters: [narrow],
    });
    expectError(groupsOver, errors.queryOverBudget('3 groups'));
    // Ungrouped, only the rows of the page are kept: a small page fits, a large one does not.
    const ungrouped = { dimensions: ['pos_orders.order_id'], filters: [narrow], ungrouped: true };
    expect((await query({ ...ungrouped, limit: 2 })).status).toBe(200);
    expectError(await query(ungrouped), errors.queryOverBudget('3 groups'));

    s.app.services.config.datalabBudget = { ms: 1 };
    expectError(await query({ measures: ['pos_orders.count'] }), errors.queryOverBudget('1 ms'));

    // Nothing was written, and the consumer's POS dataset is still unopened: two days later, it is
    // built as in an app where no query ran.
    expect(JSON.stringify(s.app.services.store.world)).toBe(world);
    const untouched = sandbox();
    await advanceClock(s.app, 2 * 86_400);
    await advanceClock(untouched.app, 2 * 86_400);
    const mine = await allOrders(s.app, consumer, await sandboxToken(s));
    expect(mine).toEqual(await allOrders(untouched.app, consumer, await sandboxToken(untouched)));
    expect(mine.some((order) => order.creation_date.startsWith('2026-01-16'))).toBe(true);
  });

  it('answers other requests while a long query runs', async () => {
    const consumer = s.ids.verticalConsumers.POS as string;
    // Every POS connection of the world, three times: some hundreds of milliseconds of reading.
    const long = {
      queries: [
        { measures: ['pos_orders.count'], dimensions: ['pos_orders.consumer_id'] },
        { measures: ['pos_orders.total'], dimensions: ['pos_orders.consumer_id'] },
        { measures: ['pos_orders.guests'], dimensions: ['pos_orders.consumer_id'] },
      ],
      align: [['pos_orders.consumer_id', 'pos_orders.consumer_id', 'pos_orders.consumer_id']],
    };
    const answered: string[] = [];
    const running = query(long, '/datalab/query-groups-join').then((res) => {
      answered.push('query');
      return res;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const read = await call(s.app, 'GET', `/consumers/${consumer}`, { token });
    answered.push('consumer');
    expect(read.status, read.text).toBe(200);
    expect(read.body.consumerid).toBe(consumer);
    const res = await running;
    expect(res.status, res.text).toBe(200);
    expect(rows(res.body).length).toBeGreaterThan(1);
    expect(answered).toEqual(['consumer', 'query']);
  });
});

describe('datalab: the POS cube reads in passing', () => {
  it('shows the due open orders closed as the clock’s own work announced them, and writes nothing', async () => {
    const consumer = s.ids.verticalConsumers.POS as string;
    const hook = await call(s.app, 'POST', '/webhooks', {
      token,
      body: { event: 'pos.order.completed', url: 'http://127.0.0.1:9/hooks', integrationid: 9012 },
    });
    expect(hook.status, hook.text).toBe(200);
    const completed = async () => {
      const res = await call(
        s.app,
        'GET',
        '/__sandbox/webhook-deliveries?event=pos.order.completed&limit=100',
      );
      expect(res.status, res.text).toBe(200);
      return (res.body as { payload: { order_id: string; closing_date: string; total: number } }[]).map(
        (delivery) => delivery.payload,
      );
    };
    // The orders open at 09:00 are due by 15:00; nobody has read the consumer's data. The clock's
    // own work announces what closed, read or not.
    await advanceClock(s.app, 6 * 3600);
    token = await sandboxToken(s);
    const announced = await completed();
    expect(announced.length).toBeGreaterThanOrEqual(2);
    const res = await query({
      measures: ['pos_orders.total', 'pos_orders.total_tip'],
      dimensions: ['pos_orders.order_id', 'pos_orders.state', 'pos_orders.closing_date'],
      filters: [{ member: 'pos_orders.consumer_id', operator: 'equals', values: [consumer] }],
      limit: 50_000,
    });
    expect(res.status, res.text).toBe(200);
    const reported = new Map(rows(res.body).map((row) => [row['pos_orders.order_id'], row]));
    // The query, a read, published nothing more.
    expect(await completed()).toEqual(announced);

    // The POS API shows them as the query did, and its read publishes nothing either.
    const orders = await allOrders(s.app, consumer, token);
    expect(orders).toHaveLength(reported.size);
    const closedNow = await completed();
    expect(closedNow).toEqual(announced);
    // Every order reads as the API shows it: closed, but those placed in the last hour and a half,
    // still in progress at 15:00 (the day's own business, open until their time comes).
    for (const order of orders) {
      if (order.closing_date === null) expect(order.creation_date > '2026-01-15T13:25:00').toBe(true);
      expect(reported.get(order.id)).toEqual({
        'pos_orders.order_id': order.id,
        'pos_orders.state': order.closing_date === null ? 'open' : 'closed',
        'pos_orders.closing_date': order.closing_date,
        'pos_orders.total': order.total,
        'pos_orders.total_tip': order.total_tip,
      });
    }
    // The webhook hears every POS connection of its integration: those of this consumer are the
    // orders the query showed closed.
    const ofConsumer = closedNow.filter((event) => reported.has(event.order_id));
    expect(ofConsumer.length).toBeGreaterThanOrEqual(2);
    for (const event of ofConsumer) {
      expect(reported.get(event.order_id)).toMatchObject({
        'pos_orders.closing_date': event.closing_date,
        'pos_orders.total': event.total,
      });
    }
  });
});
