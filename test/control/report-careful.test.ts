import { API } from '@chift/chift-nodejs';
import { afterEach, describe, expect, it } from 'vitest';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';

/**
 * A careful client, the official Node SDK used as its README says (one client, its token reused,
 * lists paged through by the SDK, writes with a clientRequestId, reference data read before writing),
 * gets a report without findings. The clock follows the machine's: the SDK compares a token's
 * expires_on with the machine's time.
 */
let sandbox: RunningSandbox | undefined;

afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe('the readiness report of a careful client', () => {
  it('has no finding for the official SDK used as its README says', async () => {
    sandbox = await startSandbox({ seed: 13, port: 0, clock: 'now' });
    const ids = seedDirectory(13);
    const client = new API({
      baseUrl: sandbox.url,
      accountId: sandbox.credentials.accountId,
      clientId: sandbox.credentials.sandbox.clientId,
      clientSecret: sandbox.credentials.sandbox.clientSecret,
    });
    const consumer = await client.Consumers.getConsumerById(ids.verticalConsumers.INVOICING as string);
    // biome-ignore lint/suspicious/noExplicitAny: the SDK's consumer object is typed loosely
    const invoicing: any = consumer.invoicing;
    const taxes = await invoicing.getTaxes();
    const products = await invoicing.getProducts();
    const invoices = await invoicing.getInvoices({ invoice_type: 'customer_invoice' });
    expect(invoices.length).toBeGreaterThan(100);
    const contact = await invoicing.createContact(
      { company_name: 'Careful SA' },
      { clientRequestId: 'careful-c-1' },
    );
    const tax = taxes[0];
    await invoicing.createInvoice(
      {
        invoice_type: 'customer_invoice',
        status: 'posted',
        currency: 'EUR',
        invoice_date: new Date().toISOString().slice(0, 10),
        untaxed_amount: 10,
        tax_amount: (10 * tax.rate) / 100,
        total: 10 + (10 * tax.rate) / 100,
        partner_id: contact.id,
        lines: [
          {
            unit_price: 10,
            quantity: 1,
            untaxed_amount: 10,
            tax_amount: (10 * tax.rate) / 100,
            total: 10 + (10 * tax.rate) / 100,
            discount_amount: 0,
            tax_id: tax.id,
            product_id: products[0].id,
          },
        ],
      },
      { clientRequestId: 'careful-i-1' },
    );
    const report = (await (await fetch(`${sandbox.url}/__sandbox/report`)).json()) as {
      requests: { api_calls: number };
      tokens: Record<string, number>;
      writes: Record<string, number>;
      findings: unknown[];
      coverage: unknown[];
    };
    expect(report.requests.api_calls).toBeGreaterThan(5);
    expect(report.tokens).toMatchObject({ requested: 1, distinct_used: 1, expired_uses: 0 });
    expect(report.writes).toEqual({ total: 2, with_request_id: 2, transactions_looked_up: 0 });
    expect(report.findings).toEqual([]);
    expect(report.coverage).toHaveLength(1);
    // The programmatic helper gives the same report.
    expect(JSON.parse(JSON.stringify(await sandbox.report()))).toEqual(report);
  });
});
