import { describe, expect, it } from 'vitest';
import { call, tokenFor } from '../helpers.js';
import { closingWorlds, expectAnswered, twoWorlds, waitsWhile } from './turns.js';

/** The readiness report reads a full journal in slices: the other worlds are answered meanwhile. */

closingWorlds();

describe('other worlds keep being answered', () => {
  it('while the readiness report reads a full journal', async () => {
    const { s, read } = await twoWorlds({ requestJournalSize: 10_000 });
    const token = await tokenFor(s.app, { accountId: s.ids.accountId, ...s.ids.sandbox });
    const path = `/consumers/${s.ids.verticalConsumers.POS}`;
    for (let i = 0; i < 10_000; i++) await call(s.app, 'GET', path, { token });
    expect((await call(s.app, 'GET', '/__sandbox/report')).status).toBe(200);
    // A few times, for enough reads for a percentile.
    const reports = async () => {
      for (let round = 0; round < 5; round++) {
        expect((await call(s.app, 'GET', '/__sandbox/report')).status).toBe(200);
      }
    };
    expectAnswered(await waitsWhile(reports(), read), '5 reports on 10,000 requests');
  }, 120_000);
});
