import { describe, expect, it } from 'vitest';
import { call, sandbox, sandboxToken } from '../../helpers.js';
import { consumerWith } from '../verticals/finance-helpers.js';

/**
 * A point of sale is a shop of its software's country: a French till (Cashpad) charges French VAT, its
 * shops are in France with Paris's time, and so are its orders; a till sold everywhere (Square)
 * keeps the Belgian shop the sandbox always had.
 */

type Tax = { label: string; rate: number; tax_code: string };

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

  it('a till sold everywhere keeps the Belgian rates and places', async () => {
    const { get } = await posOf(9000, { token: 't' });
    const taxes = (await get('tax-rates')).items as Tax[];
    expect(taxes.map((t) => t.rate)).toEqual([21, 6, 0]);
    const locations = (await get('locations')).items as { timezone: string; address: { country: string } }[];
    expect(locations.every((l) => l.timezone === 'Europe/Brussels' && l.address.country === 'BE')).toBe(true);
  });
});
