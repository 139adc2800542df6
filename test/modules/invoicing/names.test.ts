import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app.js';
import { loadFixtures } from '../../../src/control/fixtures.control.js';
import { token } from '../../control/fixture-helpers.js';
import { call, SEED, sandbox, sandboxToken } from '../../helpers.js';
import { consumerWith } from '../verticals/finance-helpers.js';

/**
 * An invoicing tool names what it sells and how it is paid in its country's language: a French one
 * (Vosfactures) sells "Conseil (heure)" billed per "heure", is paid by "Virement", banks on a "Compte
 * courant" and writes "Frais bancaires" on its statements; a Dutch one (Sandbox Invoicing Basic) in
 * Dutch; a Belgian one (Billit) keeps the names the sandbox always drew. A fixture names a payment
 * method either way.
 */

// biome-ignore lint/suspicious/noExplicitAny: items are read field by field
type Item = any;

async function invoicingOf(integrationid: number, credentials: Record<string, string>) {
  const s = sandbox();
  const { consumerId } = await consumerWith(s, await sandboxToken(s), integrationid, credentials);
  return async (path: string): Promise<Item[]> => {
    const res = await call(s.app, 'GET', `/consumers/${consumerId}/invoicing/${path}`, {
      token: await sandboxToken(s),
    });
    expect(res.status, res.text).toBe(200);
    return res.body.items;
  };
}

describe('an invoicing tool names things in its country’s language', () => {
  it('a French one: products, units, categories, payment methods, accounts and statement lines', async () => {
    const get = await invoicingOf(7006, { api_token: 't' });
    const products = await get('products?size=100');
    const consulting = products.find((p) => p.code === 'SRV-CONS');
    expect(consulting).toMatchObject({
      name: 'Conseil (heure)',
      unit: 'heure',
      category: 'Services',
      description: 'Conseil, facturé par heure',
    });
    expect(products.find((p) => p.code === 'GDS-CHAIR')).toMatchObject({
      name: 'Chaise de bureau ergonomique',
      category: 'Marchandises',
      description: 'Chaise de bureau ergonomique, vendu par unité',
    });
    const methods = (await get('payment-methods?size=100')).map((m) => m.name);
    expect(methods).toEqual(['Virement', 'Carte bancaire', 'Espèces', 'Prélèvement']);
    const accounts = await get('bank-accounts?size=100');
    expect(accounts.map((a) => a.name)).toEqual(['Compte courant', 'Compte épargne', 'Compte en USD']);
    const lines = await get(`bank-transactions?bank_account_id=${accounts[0].id}&size=100`);
    expect(lines.some((l) => l.description === 'Frais bancaires')).toBe(true);
    expect(lines.some((l) => l.description === 'Bank fees')).toBe(false);
    const invoices = await get('invoices?size=100');
    const lineNames = new Set(invoices.flatMap((i) => i.lines.map((l: Item) => l.product_name)));
    expect([...lineNames].every((name) => name === null || products.some((p) => p.name === name))).toBe(true);
    expect(lineNames.has('Conseil (heure)') || lineNames.size > 3).toBe(true);
  });

  it('a Dutch one in Dutch; a Belgian one keeps the names it always had', async () => {
    const dutch = await invoicingOf(90401, { username: 'u', password: 'p' });
    expect((await dutch('products?size=100')).find((p) => p.code === 'SRV-CONS')).toMatchObject({
      name: 'Advies (uur)',
      unit: 'uur',
      description: 'Advies, gefactureerd per uur',
    });
    expect((await dutch('payment-methods?size=100')).map((m) => m.name)).toContain('Overboeking');
    const belgian = await invoicingOf(7023, { username: 'u', password: 'p' });
    expect((await belgian('products?size=100')).find((p) => p.code === 'SRV-CONS')).toMatchObject({
      name: 'Consulting (hour)',
      unit: 'hour',
      description: 'Consulting, billed per hour',
    });
    expect((await belgian('payment-methods?size=100')).map((m) => m.name)).toEqual([
      'Bank transfer',
      'Credit card',
      'Cash',
      'Direct debit',
    ]);
  });

  it('a fixture pays with "Bank transfer" or "virement" on a French tool: its Virement', async () => {
    const app = createApp({ seed: SEED });
    const payment = (method: string) => ({
      invoice_id: 'inv',
      amount: 10,
      date: '2026-01-09',
      currency: 'EUR',
      payment_method_id: method,
    });
    const result = await loadFixtures(app, {
      consumers: [
        {
          name: 'Atelier',
          connections: [
            {
              integration: 'Vosfactures',
              credentials: { api_token: 't' },
              invoicing: {
                contacts: [{ ref: 'client', company_name: 'Client SARL', is_customer: true }],
                invoices: [
                  {
                    ref: 'inv',
                    invoice_type: 'customer_invoice',
                    status: 'posted',
                    invoice_date: '2026-01-05',
                    partner_id: 'client',
                    currency: 'EUR',
                    untaxed_amount: 100,
                    tax_amount: 20,
                    total: 120,
                    lines: [
                      {
                        description: 'Conseil',
                        unit_price: 100,
                        quantity: 1,
                        untaxed_amount: 100,
                        tax_rate: 20,
                        tax_amount: 20,
                        total: 120,
                      },
                    ],
                  },
                ],
                payments: [payment('Bank transfer'), payment('virement')],
              },
            },
          ],
        },
      ],
    });
    const consumer = result.consumers[0]?.consumerid as string;
    const ids = result.consumers[0]?.connections[0]?.records.invoicing?.payments ?? [];
    const res = await call(app, 'GET', `/consumers/${consumer}/invoicing/payments?size=100`, {
      token: await token(app),
    });
    const names = (res.body.items as Item[])
      .filter((p) => ids.includes(p.id))
      .map((p) => p.payment_method_name);
    expect(names).toEqual(['Virement', 'Virement']);
  });
});
