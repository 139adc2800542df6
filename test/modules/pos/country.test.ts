import { describe, expect, it } from 'vitest';
import { buildPosDataset } from '../../../src/modules/pos/world/pos.seed.js';
import { loadCatalogue } from '../../../src/platform/catalogue.js';
import { call, sandbox, sandboxToken } from '../../helpers.js';
import { consumerWith } from '../verticals/finance-helpers.js';

/**
 * A point of sale is a shop of its software's country: a French till (Cashpad) charges French VAT, its
 * shops are in France with Paris's time, and so are its orders; Zelty's restaurants charge the French
 * rates of a restaurant (10 % on site, 5.5 % taken away, 20 % on drinks); a till sold everywhere
 * (Square) keeps the Belgian shop the sandbox always had.
 */

type Tax = { label: string; rate: number; tax_code: string };
type Product = { id: string; name: string; prices: { unit_price: number; tax_rate: number }[] };
type Location = { timezone: string; address: { country: string; city: string } };
type Order = {
  mode: string;
  country: string;
  total: number;
  taxes: { tax_rate: number; total: number }[];
  items: { product_id: string; tax_rate: number }[];
};

async function posOf(integrationid: number, credentials: Record<string, string>) {
  const s = sandbox();
  const token = await sandboxToken(s);
  const { consumerId } = await consumerWith(s, token, integrationid, credentials);
  const get = async (path: string) => {
    const res = await call(s.app, 'GET', `/consumers/${consumerId}/pos/${path}`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  return { get };
}

describe('the POS of a connector is of its country', () => {
  it('a French till charges 20, 5.5 and 0 %, in shops in France, on Paris time', async () => {
    const { get } = await posOf(9005, { client_id: 'c', client_secret: 's' });
    const taxes = (await get('tax-rates')).items as Tax[];
    expect(taxes.map((t) => t.rate)).toEqual([20, 5.5, 0]);
    expect(taxes.map((t) => t.label)).toEqual(['TVA 20%', 'TVA 5.5%', 'TVA 0%']);
    const locations = (await get('locations')).items as { timezone: string; address: { country: string } }[];
    expect(locations.every((l) => l.timezone === 'Europe/Paris' && l.address.country === 'FR')).toBe(true);
    const orders = (await get('orders?date_from=2026-01-01&date_to=2026-01-14&size=50')).items as {
      country: string;
      taxes: { tax_rate: number }[];
    }[];
    expect(orders.length).toBeGreaterThan(0);
    expect(orders.every((o) => o.country === 'FR')).toBe(true);
    const rates = new Set(orders.flatMap((o) => o.taxes.map((t) => t.tax_rate)));
    expect(rates.size).toBeGreaterThan(0);
    for (const rate of rates) expect([20, 5.5, 0]).toContain(rate);
  });

  it('a Zelty restaurant charges 10 % on site, 5.5 % taken away and 20 % on drinks, in France', async () => {
    const { get } = await posOf(9012, { client_id: 'c', client_secret: 's' });
    const taxes = (await get('tax-rates')).items as Tax[];
    expect(taxes.map((t) => [t.label, t.rate, t.tax_code])).toEqual([
      ['TVA 20%', 20, 'VAT20'],
      ['TVA 10%', 10, 'VAT10'],
      ['TVA 5.5%', 5.5, 'VAT5_5'],
      ['TVA 0%', 0, 'VAT0'],
    ]);
    const products = (await get('products?size=100')).items as Product[];
    const prices = (name: string) => products.find((p) => p.name === name)?.prices;
    expect(prices('Steak frites')).toEqual([
      { unit_price: 24.5, tax_rate: 10 },
      { unit_price: 24.5, tax_rate: 5.5 },
    ]);
    expect([prices('Cola'), prices('Frais de livraison')]).toEqual([
      [{ unit_price: 3.4, tax_rate: 20 }],
      [{ unit_price: 2.48, tax_rate: 20 }],
    ]);
    const locations = (await get('locations')).items as Location[];
    const french = ['Paris', 'Lyon', 'Lille', 'Bordeaux', 'Nantes'];
    expect(locations.map((l) => [l.timezone, l.address.country, french.includes(l.address.city)])).toEqual([
      ['Europe/Paris', 'FR', true],
      ['Europe/Paris', 'FR', true],
    ]);
    const orders = (await get('orders?date_from=2026-01-01&date_to=2026-01-14&size=100')).items as Order[];
    expect(orders.length).toBeGreaterThan(20);
    expect(orders.every((o) => o.country === 'FR')).toBe(true);
    // Food at 10 % eaten in, at 5.5 % taken away or delivered; drinks and the delivery fee at 20 %.
    const food = new Set(products.filter((p) => p.prices.length === 2).map((p) => p.id));
    const rates = (eatenIn: boolean, isFood: boolean) =>
      new Set(
        orders
          .filter((o) => (o.mode === 'EAT_IN') === eatenIn)
          .flatMap((o) => o.items.filter((i) => food.has(i.product_id) === isFood).map((i) => i.tax_rate)),
      );
    expect([rates(true, true), rates(false, true)]).toEqual([new Set([10]), new Set([5.5])]);
    expect([rates(true, false), rates(false, false)]).toEqual([new Set([20]), new Set([20])]);
    for (const order of orders) {
      const byRate = order.taxes.reduce((sum, t) => sum + Math.round(t.total * 100), 0);
      expect(byRate).toBe(Math.round(order.total * 100));
    }
  });

  it("a French till's customers have French mobiles and e-mail providers; a Belgian one's Belgian", async () => {
    type Customer = { phone: string | null; email: string | null };
    const customersOf = async (integrationid: number, credentials: Record<string, string>) =>
      (await (await posOf(integrationid, credentials)).get('customers?size=100')).items as Customer[];
    const french = await customersOf(9005, { client_id: 'c', client_secret: 's' });
    const phones = french.flatMap((c) => (c.phone ? [c.phone] : []));
    expect(phones.length).toBeGreaterThan(10);
    for (const phone of phones) expect(phone).toMatch(/^\+336\d{8}$/);
    const domains = new Set(french.flatMap((c) => (c.email ? [c.email.split('@')[1]] : [])));
    for (const domain of domains) expect(domain).not.toMatch(/\.be$/);
    const belgian = await customersOf(9000, { token: 't' });
    for (const c of belgian) if (c.phone) expect(c.phone).toMatch(/^\+324\d{8}$/);
  });

  it('a till sold everywhere keeps the Belgian rates and places', async () => {
    const { get } = await posOf(9000, { token: 't' });
    const taxes = (await get('tax-rates')).items as Tax[];
    expect(taxes.map((t) => [t.label, t.rate])).toEqual([
      ['VAT 21%', 21],
      ['VAT 6%', 6],
      ['VAT 0%', 0],
    ]);
    const locations = (await get('locations')).items as { timezone: string; address: { country: string } }[];
    expect(locations.every((l) => l.timezone === 'Europe/Brussels' && l.address.country === 'BE')).toBe(true);
  });
});

describe('the country changes the rates, not the draws', () => {
  // Zelty's restaurant in France, and as it would be if the catalogue named Belgium Zelty's first
  // country: the same orders, at the same minutes, of the same dishes, paid the same way (bills split
  // in two included); only their taxes, totals and names differ.
  const at = '2026-03-20T15:37:00.000Z';
  const args = { consumerid: 'consumer', connectionid: 'connection', integrationid: 9012 };
  type Dataset = ReturnType<typeof buildPosDataset>;
  function inBelgium(): Dataset {
    const zelty = loadCatalogue().get(9012);
    if (!zelty) throw new Error('Zelty is in the catalogue');
    const listed = zelty.supported_countries;
    zelty.supported_countries = ['BE'];
    try {
      return buildPosDataset(7, args, at);
    } finally {
      zelty.supported_countries = listed;
    }
  }
  const shape = (d: Dataset) =>
    Object.values(d.orders).map((o) => [
      o.id,
      o.creation_date,
      o.closing_date,
      o.mode,
      o.customer_id,
      o.items.map((i) => [
        i.product_id,
        i.quantity,
        i.modifiers.map((m) => [m.modifier_id, m.quantity, m.total]),
        i.discounts.map((x) => x.type),
      ]),
      o.payments.map((p) => [p.payment_method_id, p.tip]),
    ]);
  const rates = (d: Dataset) =>
    [...new Set(Object.values(d.orders).flatMap((o) => o.items.map((i) => i.tax_rate ?? 0)))].sort(
      (a, b) => a - b,
    );

  it('draws the same orders in France and in Belgium', () => {
    const [france, belgium] = [buildPosDataset(7, args, at), inBelgium()];
    expect([rates(france), rates(belgium)]).toEqual([
      [5.5, 10, 20],
      [6, 12, 21],
    ]);
    expect(shape(france)).toEqual(shape(belgium));
    const split = Object.values(france.orders).filter((o) => o.payments.length > 1);
    expect(split.length).toBeGreaterThan(0);
    for (const order of split) {
      const paid = order.payments.reduce((sum, p) => sum + Math.round(p.total * 100), 0);
      expect(paid).toBe(Math.round(order.total * 100));
    }
  });
});
