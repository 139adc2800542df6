import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app.js';
import { loadFixtures } from '../../../src/control/fixtures.control.js';
import { token } from '../../control/fixture-helpers.js';
import { call, SEED, sandbox, sandboxToken } from '../../helpers.js';
import { consumerWith } from '../verticals/finance-helpers.js';

/**
 * A till names what it sells in its country's language: a French restaurant (Zelty) lists "Soupe à
 * la tomate" in "Entrées", cooked "À point"; a French shop (Cashpad) sells a "Chemise en lin"; a till
 * sold everywhere (Square) keeps the names the sandbox always drew. Fixtures name a product or an
 * option either way, so a document written for a Belgian till applies to a French one.
 */

type Named = { id: string; name: string; description?: string | null };

async function posOf(integrationid: number, credentials: Record<string, string>) {
  const s = sandbox();
  const bearer = await sandboxToken(s);
  const { consumerId } = await consumerWith(s, bearer, integrationid, credentials);
  return async (path: string) => {
    const res = await call(s.app, 'GET', `/consumers/${consumerId}/pos/${path}`, { token: bearer });
    expect(res.status, res.text).toBe(200);
    return res.body.items as Named[];
  };
}

describe('a till names what it sells in its country’s language', () => {
  it('a French restaurant: dishes, categories, options and descriptions in French', async () => {
    const get = await posOf(9012, { client_id: 'c', client_secret: 's' });
    const products = await get('products?size=100');
    const names = products.map((p) => p.name);
    expect(names).toEqual(
      expect.arrayContaining(['Soupe à la tomate', 'Moules-frites', 'Frais de livraison']),
    );
    expect(names).not.toContain('Tomato soup');
    const described = products.filter((p) => p.description);
    expect(described.length).toBeGreaterThan(5);
    for (const p of described) expect(p.description?.startsWith(`${p.name}, `)).toBe(true);
    const categories = (await get('product-categories')).map((c) => c.name);
    expect(categories).toEqual(expect.arrayContaining(['Entrées', 'Plats', 'Boissons chaudes']));
    const options = (await get('modifiers')) as unknown as { name: string; options: Named[] }[];
    expect(options.map((g) => [g.name, g.options.map((o) => o.name)])).toContainEqual([
      'Cuisson',
      ['Saignant', 'À point', 'Bien cuit'],
    ]);
  });

  it('a French shop sells in French, its books about France; a till sold everywhere keeps its names', async () => {
    const french = (
      await (
        await posOf(9005, { client_id: 'c', client_secret: 's' })
      )('products?size=100')
    ).map((p) => p.name);
    expect(french).toEqual(expect.arrayContaining(['Chemise en lin', 'Guide de Paris', 'Retouches']));
    const anywhere = (await (await posOf(9000, { token: 't' }))('products?size=100')).map((p) => p.name);
    expect(anywhere).toEqual(expect.arrayContaining(['Linen shirt', 'City guide: Brussels']));
  });

  it('a fixture names a French dish, its option and the payment in French or as a Belgian till does', async () => {
    const app = createApp({ seed: SEED });
    const order = (product: string, option: string, method: string) => ({
      creation_date: '2026-01-14T12:00:00Z',
      payment_method: method,
      items: [{ product, modifiers: [{ modifier_id: option }] }],
    });
    const result = await loadFixtures(app, {
      consumers: [
        {
          name: 'Brasserie',
          connections: [
            {
              integration: 'Zelty',
              pos: {
                orders: [
                  order('Steak frites', 'Medium', 'Cash'),
                  order('steak FRITES', 'à point', 'espèces'),
                ],
              },
            },
          ],
        },
      ],
    });
    const consumer = result.consumers[0]?.consumerid as string;
    const ids = result.consumers[0]?.connections[0]?.records.pos?.orders ?? [];
    const bearer = await token(app);
    const lines = await Promise.all(
      ids.map(async (id) => {
        const res = await call(app, 'GET', `/consumers/${consumer}/pos/orders/${id}`, { token: bearer });
        expect(res.status, res.text).toBe(200);
        const [line] = res.body.items as { product_id: string; modifiers: { name: string }[] }[];
        const methods = (res.body.payments as { payment_method_name: string }[]).map(
          (p) => p.payment_method_name,
        );
        return [line?.product_id, line?.modifiers.map((m) => m.name), methods];
      }),
    );
    expect(lines[0]).toEqual(lines[1]);
    expect(lines[0]?.[1]).toEqual(['À point']);
    expect(lines[0]?.[2]).toEqual(['Espèces']);
  });

  it('a name of another country is not one of a French till: refused at its path', async () => {
    const app = createApp({ seed: SEED });
    const load = () =>
      loadFixtures(app, {
        consumers: [
          {
            name: 'Brasserie',
            connections: [
              {
                integration: 'Zelty',
                pos: {
                  orders: [{ creation_date: '2026-01-14T12:00:00Z', items: [{ product: 'Tomatensoep' }] }],
                },
              },
            ],
          },
        ],
      });
    await expect(load()).rejects.toMatchObject({
      path: 'consumers[0].connections[0].pos.orders[0].items[0].product',
      detail: expect.stringMatching(/^'Tomatensoep' is not a product of the point of sale/),
    });
  });
});
