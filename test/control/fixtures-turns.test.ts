import { describe, expect, it } from 'vitest';
import { FIXTURE_BUDGET } from '../../src/lib/budgets.js';
import { call, SEED } from '../helpers.js';
import { closingWorlds, expectAnswered, rowsDocument, twoWorlds, waitsWhile } from './turns.js';

/**
 * A fixture document at its budget is applied in slices, loaded into a world or at a world's
 * creation: the other worlds are answered meanwhile. It used to be applied in one piece.
 */

closingWorlds();

/** A call that lasts a fraction of a second is made a few times: enough reads for a percentile. */
const ROUNDS = 8;
/** The most rows a document at its budget holds. */
const ROWS = FIXTURE_BUDGET.items - 3;

describe('other worlds keep being answered', () => {
  it('while fixture documents at their budget load', async () => {
    const { s, read } = await twoWorlds({ bodyLimit: 16 * 1024 * 1024 });
    expect((await call(s.app, 'POST', '/__sandbox/fixtures', { body: rowsDocument(s, 5) })).status).toBe(200);
    const loads = async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const loaded = await call(s.app, 'POST', '/__sandbox/fixtures', {
          body: rowsDocument(s, ROWS, `Budget ${round}`),
        });
        expect(loaded.status, loaded.text.slice(0, 300)).toBe(200);
        expect(loaded.body.datastores[0].rows).toHaveLength(ROWS);
      }
    };
    expectAnswered(await waitsWhile(loads(), read), `${ROUNDS} fixture documents of ${ROWS} datastore rows`);
  }, 60_000);

  it('while worlds are created with fixtures at their budget', async () => {
    const { s, read } = await twoWorlds({ bodyLimit: 16 * 1024 * 1024 });
    const creations = async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const created = await call(s.app, 'POST', '/__sandbox/worlds', {
          body: { seed: SEED, fixtures: rowsDocument(s, ROWS) },
        });
        expect(created.status, created.text.slice(0, 300)).toBe(201);
      }
    };
    expectAnswered(await waitsWhile(creations(), read), `${ROUNDS} worlds of ${ROWS} datastore rows`);
  }, 60_000);
});
