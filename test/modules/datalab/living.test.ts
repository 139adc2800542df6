import { describe, expect, it } from 'vitest';
import { QueryResponse } from '../../../src/modules/datalab/datalab.schemas.js';
import { call, sandbox, sandboxToken } from '../../helpers.js';

/**
 * The Datalab reads the business as it stands: the orders placed as the clock moves, within the day
 * too, are counted as soon as they are placed, as the POS API lists them.
 */

describe('datalab: the living business', () => {
  it('counts the orders of the day so far as the clock moves, as the POS API lists them', async () => {
    const s = sandbox();
    const consumer = s.ids.verticalConsumers.POS as string;
    const narrow = { member: 'pos_orders.consumer_id', operator: 'equals', values: [consumer] };
    const day = {
      member: 'pos_orders.creation_date',
      operator: 'inDateRange',
      values: ['2026-01-15', '2026-01-15'],
    };
    const counts: number[] = [];
    for (const hours of [0, 3, 3, 6]) {
      if (hours) {
        const moved = await call(s.app, 'POST', '/__sandbox/clock', {
          body: { advance_seconds: hours * 3600 },
        });
        expect(moved.status).toBe(200);
      }
      const token = await sandboxToken(s);
      const res = await call(s.app, 'POST', '/datalab/query-db', {
        token,
        body: { measures: ['pos_orders.count'], filters: [narrow, day] },
      });
      expect(res.status, res.text).toBe(200);
      const count = QueryResponse.parse(res.body).results[0]?.data[0] as number;
      const listed = await call(
        s.app,
        'GET',
        `/consumers/${consumer}/pos/orders?date_from=2026-01-15&date_to=2026-01-15&size=1`,
        { token },
      );
      expect(count).toBe(listed.body.total);
      counts.push(count);
    }
    // More orders as the day goes on (09:00, 12:00, 15:00, 21:00).
    expect(counts[3]).toBeGreaterThan(counts[0] as number);
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeGreaterThanOrEqual(counts[i - 1] as number);
  });
});
