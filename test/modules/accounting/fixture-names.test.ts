import { describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app.js';
import { loadFixtures } from '../../../src/control/fixtures.control.js';
import { invoice, token } from '../../control/fixture-helpers.js';
import { call, SEED } from '../../helpers.js';

/**
 * A French ledger (Pennylane) calls its payment methods Virement, Prélèvement...: a fixture pays an
 * invoice by the ledger's name or by the one a Belgian ledger gives the same method (Bank transfer),
 * and the payment is booked in that method's journal either way; a name of neither is refused.
 */

const FRENCH_SALE = invoice(
  { untaxed_amount: 100, tax_amount: 20, total: 120, ref: 'sale' },
  { tax_rate: 20, tax_amount: 20, total: 120, account_number: '706000', tax_code: 'C20' },
);

const documentPaying = (methods: string[]) => ({
  consumers: [
    {
      name: 'Cabinet',
      connections: [
        {
          integration: 'Pennylane',
          accounting: {
            clients: [{ ref: 'client', name: 'Client SARL', addresses: [] }],
            invoices: [FRENCH_SALE],
            invoice_payments: methods.map((method) => ({
              date: '2026-01-10',
              payment_method_id: method,
              currency: 'EUR',
              items: [{ invoice_id: 'sale', amount: 10 }],
            })),
          },
        },
      ],
    },
  ],
});

describe('a French ledger’s payment methods in a fixture', () => {
  it('"Bank transfer" and "virement" both pay through its Virement', async () => {
    const app = createApp({ seed: SEED });
    const result = await loadFixtures(app, documentPaying(['Bank transfer', 'virement']));
    const consumer = result.consumers[0]?.consumerid as string;
    const [sale] = result.consumers[0]?.connections[0]?.records.accounting?.invoices ?? [];
    const bearer = await token(app);
    const base = `/consumers/${consumer}/accounting`;
    const methods = await call(app, 'GET', `${base}/payment-methods?size=100`, { token: bearer });
    const virement = (methods.body.items as { name: string; id: string }[]).find(
      (m) => m.name === 'Virement',
    );
    expect(virement).toBeDefined();
    const paid = await call(app, 'GET', `${base}/invoices/${sale}?include_payments=true`, { token: bearer });
    expect(paid.status, paid.text).toBe(200);
    const journals = (paid.body.payments as { journal_id: string; amount: number }[]).map(
      (p) => p.journal_id,
    );
    expect(journals).toHaveLength(2);
    expect(new Set(journals).size).toBe(1);
  });

  it('a name of neither country is refused at its path', async () => {
    const app = createApp({ seed: SEED });
    await expect(loadFixtures(app, documentPaying(['Bizum']))).rejects.toMatchObject({
      path: 'consumers[0].connections[0].accounting.invoice_payments[0].payment_method_id',
    });
  });
});
