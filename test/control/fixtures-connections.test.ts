import { describe, expect, it } from 'vitest';
import { createApp, type SandboxApp } from '../../src/app.js';
import { FixtureError } from '../../src/control/fixtures.control.js';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { call, SEED } from '../helpers.js';
import { token } from './fixture-helpers.js';

/**
 * A fixture's connection: the id it is given (kept, refused when another record holds it), and
 * `seeded: false`, a connection whose data holds the document's records alone.
 */

const CONNECTION = '2f9a1c4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b';

function refusal(load: () => unknown): FixtureError {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(FixtureError);
    return error as FixtureError;
  }
  throw new Error('the fixture was not refused');
}

async function list(app: SandboxApp, bearer: string, consumer: string, path: string): Promise<unknown[]> {
  const res = await call(app, 'GET', `/consumers/${consumer}/${path}`, { token: bearer });
  expect(res.status, path).toBe(200);
  return (res.body.items ?? res.body) as unknown[];
}

describe("a fixture connection's id", () => {
  it('is kept, and GET .../connections answers it', async () => {
    const app = createApp({
      seed: SEED,
      fixtures: {
        consumers: [
          {
            id: 'e1b7c0de-0000-4000-8000-000000000001',
            name: 'Kept',
            connections: [{ id: CONNECTION, integration: 7010 }],
          },
        ],
      },
    });
    const res = await call(app, 'GET', '/consumers/e1b7c0de-0000-4000-8000-000000000001/connections', {
      token: await token(app),
    });
    expect(res.body).toMatchObject([{ connectionid: CONNECTION, integrationid: 7010 }]);
  });

  it('is refused when another connection of the document holds it, naming the entry', () => {
    const error = refusal(() =>
      createApp({
        seed: SEED,
        fixtures: {
          consumers: [
            { name: 'One', connections: [{ id: CONNECTION, integration: 7010 }] },
            { name: 'Two', connections: [{ id: CONNECTION.toUpperCase(), integration: 9012 }] },
          ],
        },
      }),
    );
    expect(error.status).toBe(400);
    expect(error.rule).toBe('The id is already used');
    expect(error.path).toBe('consumers[1].connections[0].id');
    expect(error.detail).toBe(`The connection '${CONNECTION}' already exists`);
  });

  it("is refused when it is a seeded connection's", async () => {
    const app = createApp({ seed: SEED });
    const consumer = seedDirectory(SEED).verticalConsumers.INVOICING as string;
    const [seeded] = (await list(app, await token(app), consumer, 'connections')) as {
      connectionid: string;
    }[];
    const error = refusal(() =>
      createApp({
        seed: SEED,
        fixtures: {
          consumers: [{ name: 'Clash', connections: [{ id: seeded?.connectionid, integration: 7010 }] }],
        },
      }),
    );
    expect(error.message).toContain(`consumers[0].connections[0].id: The id is already used`);
    expect(error.detail).toBe(`The connection '${seeded?.connectionid}' already exists`);
  });
});

describe('a connection declared seeded: false', () => {
  const consumer = (name: string, connection: Record<string, unknown>) => ({
    id: `e1b7c0de-0000-4000-8000-00000000000${name.length}`,
    name,
    connections: [{ integration: 7010, ...connection }],
  });

  it("holds the document's records alone, the software's reference data kept", async () => {
    const contact = { company_name: 'Only Contact', is_company: true, is_customer: true, currency: 'EUR' };
    const app = createApp({
      seed: SEED,
      fixtures: {
        consumers: [
          consumer('bare', { seeded: false, invoicing: { contacts: [contact] } }),
          consumer('seeded', { invoicing: { contacts: [contact] } }),
        ],
      },
    });
    const bearer = await token(app);
    const bare = 'e1b7c0de-0000-4000-8000-000000000004';
    const seeded = 'e1b7c0de-0000-4000-8000-000000000006';
    expect(await list(app, bearer, bare, 'invoicing/contacts')).toMatchObject([
      { company_name: 'Only Contact' },
    ]);
    expect(await list(app, bearer, bare, 'invoicing/invoices')).toEqual([]);
    expect(await list(app, bearer, bare, 'invoicing/products')).toEqual([]);
    expect((await list(app, bearer, bare, 'invoicing/taxes')).length).toBeGreaterThan(0);
    // Without it, the seeded records stand beside the document's.
    expect((await list(app, bearer, seeded, 'invoicing/contacts')).length).toBeGreaterThan(1);
    expect((await list(app, bearer, seeded, 'invoicing/invoices')).length).toBeGreaterThan(0);
  });

  it('holds none of the seeded records with no block of the vertical: a till keeps its catalogue', async () => {
    const app = createApp({
      seed: SEED,
      fixtures: {
        consumers: [{ id: CONNECTION, name: 'Till', connections: [{ integration: 9012, seeded: false }] }],
      },
    });
    const bearer = await token(app);
    expect(await list(app, bearer, CONNECTION, 'pos/customers')).toEqual([]);
    expect(await list(app, bearer, CONNECTION, 'pos/orders?date_from=2020-01-01&date_to=2026-12-31')).toEqual(
      [],
    );
    expect((await list(app, bearer, CONNECTION, 'pos/products')).length).toBeGreaterThan(0);
  });

  it("is refused for a vertical whose data is the consumer's folders, not the connection's", () => {
    const error = refusal(() =>
      createApp({
        seed: SEED,
        fixtures: { consumers: [{ name: 'Books', connections: [{ integration: 1000, seeded: false }] }] },
      }),
    );
    expect(error.status).toBe(400);
    expect(error.rule).toBe('The connection cannot be declared without its seeded records');
    expect(error.path).toBe('consumers[0].connections[0].seeded');
  });
});
