import { afterEach, describe, expect, it } from 'vitest';
import { call, sandbox, sandboxToken } from '../../helpers.js';

/**
 * `updated_after` without an offset is an instant in UTC, whatever the machine's time zone: the same
 * request gives the same answer on a laptop in California and on a CI runner in UTC.
 */

const zone = process.env.TZ;

afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

/** The date-time an hour before `instant`, written without an offset. */
const hourBefore = (instant: string) => new Date(Date.parse(instant) - 3_600_000).toISOString().slice(0, 19);

describe('eCommerce updated_after', () => {
  it.each(['America/Los_Angeles', 'Pacific/Kiritimati', 'UTC'])(
    'reads a date-time without an offset as UTC (machine in %s)',
    async (timeZone) => {
      const s = sandbox();
      const token = await sandboxToken(s);
      const base = `/consumers/${s.ids.verticalConsumers.ECOMMERCE}/commerce`;
      const all = await call(s.app, 'GET', `${base}/products?size=100`, { token });
      expect(all.status, all.text).toBe(200);
      const newest = (all.body.items as { id: string; last_updated_on: string | null }[])
        .filter((p) => p.last_updated_on !== null)
        .sort((a, b) => Date.parse(b.last_updated_on as string) - Date.parse(a.last_updated_on as string))[0];
      if (!newest) throw new Error('the seeded shop has no product with an update time');
      const after = hourBefore(newest.last_updated_on as string);

      process.env.TZ = timeZone;
      const naive = await call(s.app, 'GET', `${base}/products?size=100&updated_after=${after}`, { token });
      const utc = await call(s.app, 'GET', `${base}/products?size=100&updated_after=${after}Z`, { token });
      expect(naive.status, naive.text).toBe(200);
      expect(naive.body.items.map((p: { id: string }) => p.id)).toContain(newest.id);
      expect(naive.text).toBe(utc.text);

      const orders = await call(s.app, 'GET', `${base}/orders?size=100&updated_after=${after}`, { token });
      const ordersUtc = await call(s.app, 'GET', `${base}/orders?size=100&updated_after=${after}Z`, {
        token,
      });
      expect(orders.text).toBe(ordersUtc.text);
    },
  );
});
