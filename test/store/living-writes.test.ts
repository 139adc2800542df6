import { describe, expect, it } from 'vitest';
import { call, sandbox, sandboxToken } from '../helpers.js';

/**
 * A client's change to a record of a living day, when the clock goes back before that day: the
 * record is not there, its change waits (no half record, never a 5xx), and both are back once the
 * clock passes the day again.
 */

const DAY = 86_400;

describe('a change to a generated record of a living day', () => {
  it('waits while the clock stands before the day, and is there again after it', async () => {
    const s = sandbox();
    let token = await sandboxToken(s);
    const pos = s.ids.verticalConsumers.POS as string;
    const move = async (seconds: number) => {
      expect(
        (await call(s.app, 'POST', '/__sandbox/clock', { body: { advance_seconds: seconds } })).status,
      ).toBe(200);
      token = await sandboxToken(s);
    };
    const orders = `/consumers/${pos}/pos/orders`;
    expect(
      (await call(s.app, 'GET', `${orders}?date_from=2026-01-15&date_to=2026-01-15`, { token })).status,
    ).toBe(200);
    await move(5 * DAY);
    const day = await call(s.app, 'GET', `${orders}?date_from=2026-01-18&date_to=2026-01-18`, { token });
    const order = day.body.items[0];
    expect(order).toBeDefined();
    const customer = (await call(s.app, 'GET', `/consumers/${pos}/pos/customers`, { token })).body.items[0]
      .id;
    const patched = await call(s.app, 'PATCH', `${orders}/${order.id}`, {
      token,
      body: { customer_id: customer },
    });
    expect(patched.status, patched.text).toBe(200);
    const changed = (await call(s.app, 'GET', `${orders}/${order.id}`, { token })).body;
    expect(changed.customer_id).toBe(customer);

    await move(-4 * DAY);
    const before = await call(s.app, 'GET', `${orders}?date_from=2021-01-01&page=1&size=100`, { token });
    expect(before.status, before.text).toBe(200);
    expect((await call(s.app, 'GET', `${orders}/${order.id}`, { token })).status).toBe(404);
    const sales = await call(
      s.app,
      'GET',
      `/consumers/${pos}/pos/sales?date_from=2026-01-15&date_to=2026-01-16`,
      {
        token,
      },
    );
    expect(sales.status, sales.text).toBe(200);

    await move(4 * DAY);
    const again = await call(s.app, 'GET', `${orders}/${order.id}`, { token });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual(changed);
  });
});
