import { describe, expect, it } from 'vitest';
import * as pms from '../../../src/modules/pms/api/pms.domain.js';
import { buildPmsDataset } from '../../../src/modules/pms/world/pms.seed.js';
import { loadCatalogue } from '../../../src/platform/catalogue.js';
import { call, SEED, sandbox, sandboxToken } from '../../helpers.js';
import { consumerWith } from '../verticals/finance-helpers.js';

/**
 * A PMS connection's hotels are of its software's country. Thais is French: its hotels are in Paris
 * and Lyon, on Paris time, charge 10 % VAT on the nights and the meals and 20 % on the rest, add the
 * taxe de séjour of their town per person and night, and their guests, labels, accounts and invoices
 * are French. A Belgian connector keeps the two Belgian hotels the sandbox always drew; the catalogue
 * lists none today, so the dataset of an integration it does not list (Belgian) stands for one.
 */

// biome-ignore lint/suspicious/noExplicitAny: records are read field by field
type Item = any;

async function pmsOf(integrationid: number, credentials: Record<string, string>) {
  const s = sandbox();
  const token = await sandboxToken(s);
  const { consumerId } = await consumerWith(s, token, integrationid, credentials);
  const get = async (path: string): Promise<Item[]> => {
    const res = await call(s.app, 'GET', `/consumers/${consumerId}/pms/${path}`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body.items;
  };
  return { get };
}

const cents = (amounts: number[]) => amounts.reduce((t, a) => t + Math.round(a * 100), 0);

describe('the hotels of a PMS connector are of its country', () => {
  it('Thais: hotels in Paris and Lyon, French VAT, the taxe de séjour, French guests and labels', async () => {
    const { get } = await pmsOf(9503, { property_id: 'HOTEL-1', api_key: 'k' });
    const taxes = await get('taxes');
    expect(taxes.map((t) => [t.label, t.rate, t.is_city_tax])).toEqual([
      ['TVA 10%', 10, false],
      ['TVA 20%', 20, false],
      ['Taxe de séjour', null, true],
    ]);
    const locations = await get('locations');
    expect(
      locations.map((l) => [l.address.city, l.address.postal_code, l.address.country, l.timezone]),
    ).toEqual([
      ['Paris', '75011', 'FR', 'Europe/Paris'],
      ['Lyon', '69002', 'FR', 'Europe/Paris'],
    ]);
    expect(locations.map((l) => l.name)).toEqual([
      expect.stringMatching(/^Hôtel \S.* Bastille$/),
      expect.stringMatching(/^Hôtel \S.* Bellecour$/),
    ]);
    const categories = await get('accounting-categories');
    expect(categories.map((c) => `${c.code} ${c.name} ${c.ledger_account_code}`)).toEqual([
      'ROOM Hébergement 706100',
      'BRK Petit-déjeuner 706200',
      'FNB Restauration 706300',
      'PARK Parking 706400',
      'CITY Taxe de séjour 447000',
    ]);
    const methods = await get('payment-methods');
    expect(methods.map((m) => m.name)).toEqual([
      'Carte bancaire',
      'Chèque-Vacances',
      'Espèces',
      'Virement',
      'Carte virtuelle Booking.com',
      'Bon cadeau',
    ]);

    // The stays: each kind of line at its French rate, the taxe de séjour of the hotel's town.
    const orders = await get('orders?date_from=2025-12-01&date_to=2025-12-31&size=100');
    expect(orders.length).toBeGreaterThan(50);
    const [paris, lyon] = locations.map((l) => l.id);
    const cityTax: Record<string, number> = { [paris]: 5.2, [lyon]: 1.65 };
    const seen = new Set<string>();
    for (const order of orders) {
      expect(order.country, order.id).toBe('FR');
      expect(order.total).toBe(cents(order.items.map((l: Item) => l.total)) / 100);
      for (const line of order.items) {
        const kind = /, nuit( de week-end)?$/.test(line.description) ? 'nuit' : line.description;
        seen.add(kind);
        const expected: Record<string, number> = {
          nuit: 10,
          'Petit-déjeuner': 10,
          'Dîner au restaurant': 10,
          Minibar: 20,
          Parking: 20,
          'Taxe de séjour': 0,
        };
        expect(expected[kind], line.description).toBeDefined();
        expect(line.tax_rate, line.description).toBe(expected[kind]);
        if (kind === 'Taxe de séjour') expect(line.unit_price).toBe(cityTax[order.location_id]);
      }
    }
    expect([...seen].sort()).toEqual(
      ['Dîner au restaurant', 'Minibar', 'Parking', 'Petit-déjeuner', 'Taxe de séjour', 'nuit'].sort(),
    );

    // Guests mostly French, with the French clients' accounts (411) and their country's phones.
    const customers = await get('customers?size=100');
    expect(customers).toHaveLength(60);
    const french = customers.filter((c) => c.addresses[0]?.country === 'FR');
    expect(french.length).toBeGreaterThan(20);
    expect(customers.every((c) => /^411\d{3}$/.test(c.account_number))).toBe(true);
    for (const guest of french) {
      expect(['Paris', 'Lyon', 'Lille', 'Bordeaux', 'Nantes']).toContain(guest.addresses[0].city);
      if (guest.phone) expect(guest.phone).toMatch(/^\+336\d{8}$/);
      expect(guest.addresses[0].name).toBe(guest.is_company ? 'Siège social' : 'Domicile');
    }

    // Postings: VAT due to 445710, its lines in French; payments described in French.
    const postings = await get('accounting-transactions?date_from=2026-01-05&date_to=2026-01-11&size=100');
    const vat = postings.filter((t) => t.is_tax_line);
    expect(vat.length).toBeGreaterThan(0);
    for (const line of vat) {
      expect(line.ledger_account_code).toBe('445710');
      expect(['TVA 10%', 'TVA 20%']).toContain(line.description);
    }
    const payments = await get('payments?date_from=2026-01-05&date_to=2026-01-11&size=100');
    expect(payments.length).toBeGreaterThan(0);
    for (const payment of payments) {
      expect(payment.description).toMatch(/^(Règlement de la|Acompte sur la) facture F2026-\d{5}$/);
    }
  });

  it('a Belgian connector keeps the two Belgian hotels, their rates, labels and places', () => {
    const integrationid = 424242;
    expect(loadCatalogue().get(integrationid)).toBeUndefined();
    const args = {
      consumerid: 'consumer-be',
      connectionid: 'connection-be',
      integrationid,
      until: '2026-01-15',
    };
    const d = buildPmsDataset(SEED, args, '2026-01-15T09:00:00.000Z');
    expect(d.tax_rates.map((t) => [t.label, t.rate, t.is_city_tax])).toEqual([
      ['VAT 6% (accommodation)', 6, false],
      ['VAT 12% (food)', 12, false],
      ['VAT 21%', 21, false],
      ['City tax', null, true],
    ]);
    expect(
      d.locations.map((l) => [l.address?.city, l.address?.postal_code, l.address?.country, l.timezone]),
    ).toEqual([
      ['Bruxelles', '1000', 'BE', 'Europe/Brussels'],
      ['Brugge', '8000', 'BE', 'Europe/Brussels'],
    ]);
    expect(d.locations.map((l) => l.name)).toEqual([
      expect.stringMatching(/^Hotel \S.* Grand-Place$/),
      expect.stringMatching(/^Hotel \S.* Canal Lodge$/),
    ]);
    expect(d.accounting_categories.map((c) => `${c.code} ${c.name} ${c.ledger_account_code}`)).toEqual([
      'ROOM Accommodation 700000',
      'BRK Breakfast 700100',
      'FNB Food and beverage 700200',
      'PARK Parking 700400',
      'CITY City tax 453000',
    ]);
    expect(d.payment_methods.map((m) => m.name)).toEqual([
      'Credit card',
      'Bancontact',
      'Cash',
      'Bank transfer',
      'Booking.com virtual card',
      'Gift voucher',
    ]);
    const orders = Object.values(d.orders);
    expect(orders.every((o) => o.country === 'BE')).toBe(true);
    const lines = orders.flatMap((o) => o.items);
    const described = (test: (description: string) => boolean) => {
      const found = lines.filter((l) => test(String(l.description)));
      expect(found.length).toBeGreaterThan(0);
      return found;
    };
    expect(new Set(described((d) => d === 'City tax').map((l) => `${l.unit_price} ${l.tax_rate}`))).toEqual(
      new Set(['4.24 0']),
    );
    expect(new Set(described((d) => d === 'Breakfast').map((l) => l.tax_rate))).toEqual(new Set([12]));
    expect(new Set(described((d) => / night$/.test(d)).map((l) => l.tax_rate))).toEqual(new Set([6]));
    expect(new Set(described((d) => d === 'Parking').map((l) => l.tax_rate))).toEqual(new Set([21]));
    expect(Object.values(d.customers).every((c) => /^400\d{3}$/.test(String(c.account_number)))).toBe(true);
    const postings = pms.accountingTransactions(d, { date_from: '2026-01-05', date_to: '2026-01-11' });
    const vat = postings.filter((t) => t.is_tax_line);
    expect(vat.length).toBeGreaterThan(0);
    expect(
      vat.every((t) => t.ledger_account_code === '451000' && /^VAT (6|12|21)%$/.test(String(t.description))),
    ).toBe(true);
  });
});
