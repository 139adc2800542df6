import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app.js';
import { messages } from '../../../src/lib/errors.js';
import { seedCredentials } from '../../../src/platform/credentials.js';
import { call, tokenFor } from '../../helpers.js';

/**
 * One Datalab query over every POS connection of the large world (100,000 consumers) used to build
 * each of their datasets in one synchronous pass: every other request went unanswered for minutes
 * and the process ran out of memory. It now reads them in passing, answers others meanwhile, and
 * stops at its budget. It then gave way only every 256 rows: several datasets could be generated
 * in one turn, and a read waited a few hundred milliseconds.
 */
describe('datalab on the large world', () => {
  it('stops a count over every POS connection at its budget, keeps nothing, and answers others meanwhile', async () => {
    const app = createApp({ seed: 3, size: 'large' });
    // Long enough for a percentile of the reads meanwhile.
    app.services.config.datalabBudget = { ms: 3000 };
    const credentials = seedCredentials(3);
    const token = await tokenFor(app, { accountId: credentials.accountId, ...credentials.sandbox });
    const consumers = (await call(app, 'GET', '/consumers?size=1', { token })).body as {
      consumerid: string;
    }[];
    const consumer = consumers[0]?.consumerid as string;

    let answered = false;
    const started = performance.now();
    const query = call(app, 'POST', '/datalab/query-db', { token, body: { measures: ['pos_orders.count'] } });
    void query.then(() => {
      answered = true;
    });
    // Each read's wait, from the instant it was due to its answer: a read due while the query works
    // waits for the end of its slice.
    const waits: number[] = [];
    while (!answered) {
      const due = performance.now() + 2;
      await new Promise((resolve) => setTimeout(resolve, 2));
      const res = await call(app, 'GET', `/consumers/${consumer}`, { token });
      expect(res.status).toBe(200);
      waits.push(performance.now() - due);
    }
    const res = await query;
    expect(res.status, res.text.slice(0, 300)).toBe(400);
    expect(res.body.message).toBe(messages.queryOverBudget('3,000 ms'));
    // Generous bounds: what they catch is minutes, not milliseconds.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(waits.length).toBeGreaterThan(5);
    expect(Math.max(...waits)).toBeLessThan(2_000);
    // It gives way before each connection's dataset it generates, and loads the verticals one a turn.
    const p99 = [...waits].sort((a, b) => a - b)[Math.ceil(waits.length * 0.99) - 1] as number;
    expect(p99, `${waits.length} reads, the slowest ${Math.round(Math.max(...waits))} ms`).toBeLessThan(100);
    // Read in passing: no dataset kept, none recorded.
    expect(app.services.store.generatedKeys('pos_datasets')).toEqual([]);
    expect(app.services.store.cacheUsage().datasets).toBe(0);
  }, 60_000);
});
