import { API } from '@chift/chift-nodejs';
import { invoicingFactory } from '@chift/chift-nodejs/dist/src/modules/invoicing.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDirectory } from '../../src/control/seeded-world.js';
import { messages, SERVICE_ERRORS, serviceError } from '../../src/lib/errors.js';
import { tinyPdf } from '../../src/lib/pdf.js';
import { type RunningSandbox, startSandbox } from '../../src/server.js';
import { methodTracker } from './coverage.js';

/**
 * Every method of the official Node SDK's invoicing module against a listening sandbox (a fresh one
 * per test), with the seeded Invoicing consumer (Evoliz) and a consumer connected to Billit (which
 * lists opportunities). The SDK pages through lists by itself (page and size=100).
 */
let sandbox: RunningSandbox;
let client: InstanceType<typeof API>;
const ids = seedDirectory(13);

// biome-ignore lint/suspicious/noExplicitAny: the SDK's consumer object is typed loosely
let invoicing: any;

const { track, missing } = methodTracker();

afterAll(() => {
  // Every method of the SDK's invoicing module is driven by this file's tests, whatever their order.
  expect(missing(invoicingFactory)).toEqual([]);
});

beforeEach(async () => {
  sandbox = await startSandbox({ seed: 13, port: 0 });
  client = new API({
    baseUrl: sandbox.url,
    accountId: sandbox.credentials.accountId,
    clientId: sandbox.credentials.sandbox.clientId,
    clientSecret: sandbox.credentials.sandbox.clientSecret,
  });
  const consumer = await client.Consumers.getConsumerById(ids.verticalConsumers.INVOICING as string);
  invoicing = track(consumer.invoicing);
});

afterEach(async () => {
  await sandbox.close();
});

/** The error the SDK throws: the service's body with the HTTP status. */
async function sdkError(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (e) {
    return (e as { error: { message: string; status_code: number; detail: string } }).error;
  }
  throw new Error('the call did not fail');
}

// biome-ignore lint/suspicious/noExplicitAny: items are read field by field
type Item = any;

describe('official SDK against the sandbox: invoicing', () => {
  it('reads taxes, products, contacts, payment methods, bank accounts and their transactions', async () => {
    const taxes: Item[] = await invoicing.getTaxes();
    expect(taxes.length).toBeGreaterThan(5);
    expect(await invoicing.getTaxById(taxes[0].id)).toEqual(taxes[0]);
    const products: Item[] = await invoicing.getProducts();
    expect(products.length).toBeGreaterThan(10);
    expect(await invoicing.getProductById(products[0].id)).toEqual(products[0]);
    const contacts: Item[] = await invoicing.getContacts();
    const suppliers: Item[] = await invoicing.getContacts({ contact_type: 'supplier' });
    expect(suppliers.length).toBeGreaterThan(0);
    expect(suppliers.length).toBeLessThan(contacts.length);
    expect(await invoicing.getContactById(contacts[0].id)).toEqual(contacts[0]);
    const methods: Item[] = await invoicing.getPaymentMethods();
    expect(methods.map((m) => m.name)).toContain('Virement');
    const accounts: Item[] = await invoicing.getBankAccounts();
    expect(accounts).toHaveLength(3);
    const lines: Item[] = await invoicing.getBankTransactions({ bank_account_id: accounts[0].id });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => l.bank_account_id === accounts[0].id)).toBe(true);
  });

  it('reads invoices (all pages), one invoice with its PDF, and payments', async () => {
    const invoices: Item[] = await invoicing.getInvoices({ invoice_type: 'customer_invoice' });
    expect(invoices.length).toBeGreaterThan(30);
    expect(invoices.every((i) => i.invoice_type === 'customer_invoice')).toBe(true);
    const one = await invoicing.getInvoiceById(invoices[0].id, { include_pdf: 'true' });
    expect(one.invoice_number).toBe(invoices[0].invoice_number);
    expect(Buffer.from(one.pdf, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    const payments: Item[] = await invoicing.getPayments();
    expect(payments.length).toBeGreaterThan(20);
    // The SDK's own test reads `date` on a payment, where the reference has payment_date: both.
    for (const payment of payments) {
      expect(payment).toHaveProperty('date', expect.any(String));
      expect(payment.date).toBe(payment.payment_date);
    }
    const error = await sdkError(invoicing.getInvoiceById('not-a-uuid'));
    expect(error).toMatchObject({
      status_code: 400,
      message: SERVICE_ERRORS.invoicingInvoiceIdFormat[2],
      error_code: SERVICE_ERRORS.invoicingInvoiceIdFormat[1],
    });
  });

  it('creates a contact, a product and an invoice, once per client request id', async () => {
    const contact = await invoicing.createContact(
      { company_name: 'SDK Customer SA' },
      { clientRequestId: 'sdk-c-1' },
    );
    const again = await invoicing.createContact(
      { company_name: 'SDK Customer SA' },
      { clientRequestId: 'sdk-c-1' },
    );
    expect(again).toEqual(contact);
    expect(contact.is_customer).toBe(true);
    const taxes: Item[] = await invoicing.getTaxes();
    // Evoliz is French: its standard rate is TVA 20%.
    const vat20 = taxes.find((t) => t.code === 'TVA20');
    const product = await invoicing.createProduct({ name: 'SDK widget', unit_price: 10, tax_id: vat20.id });
    expect(product.available_quantity).toBe(0);
    const invoice = await invoicing.createInvoice(
      {
        invoice_type: 'customer_invoice',
        status: 'posted',
        currency: 'EUR',
        invoice_date: '2026-01-15',
        untaxed_amount: 20,
        tax_amount: 4,
        total: 24,
        partner_id: contact.id,
        lines: [
          {
            unit_price: 10,
            quantity: 2,
            untaxed_amount: 20,
            tax_amount: 4,
            total: 24,
            tax_id: vat20.id,
            product_id: product.id,
          },
        ],
      },
      { clientRequestId: 'sdk-i-1' },
    );
    expect(invoice).toMatchObject({ status: 'posted', outstanding_amount: 24, partner_id: contact.id });
    expect((await invoicing.getProductById(product.id)).available_quantity).toBe(-2);
    expect((await invoicing.getInvoiceById(invoice.id)).id).toBe(invoice.id);
  });

  it('uploads a PDF, and is refused a document that is not one', async () => {
    const uploaded = await invoicing.uploadDocument({
      base64_string: tinyPdf('SDK document'),
      document_type: 'customer_document',
    });
    expect(uploaded).toMatchObject({ invoice_type: 'customer_invoice', status: 'draft' });
    const error = await sdkError(
      invoicing.uploadDocument({
        base64_string: Buffer.from('nope').toString('base64'),
        document_type: 'customer_document',
      }),
    );
    const invalid = serviceError('invalidBase64');
    expect(error).toMatchObject({
      status_code: 400,
      message: invalid.message,
      error_code: invalid.errorCode,
    });
  });

  it('reads opportunities where the integration lists them (Billit, Evoliz), not with Sandbox Invoicing Basic', async () => {
    const limited = await client.Consumers.getConsumerById(ids.coverageLimitsConsumerId);
    const error = await sdkError(limited.invoicing.getOpportunities());
    expect(error).toMatchObject({ status_code: 400, message: messages.accountingFailure });
    expect(error.detail).toContain('NOT_SUPPORTED');
    const consumer = await client.Consumers.createConsumer({
      name: 'SDK Billit user',
      redirect_url: 'https://vendor.example/back',
    });
    await consumer.createConnection({
      integrationid: 7023,
      redirect: false,
      credentials: [
        { key: 'username', value: 'u' },
        { key: 'password', value: 'p' },
      ],
    });
    const opportunities: Item[] = await consumer.invoicing.getOpportunities();
    expect(opportunities).toHaveLength(10);
    expect(await consumer.invoicing.getOpportunitiesById(opportunities[0].id)).toEqual(opportunities[0]);
    expect(((await invoicing.getOpportunities()) as Item[]).length).toBeGreaterThan(0);
    // Evoliz reads one by id, and 404s a missing one.
    const missing = await sdkError(invoicing.getOpportunitiesById('nope'));
    expect(missing).toMatchObject({
      status_code: 404,
      message: SERVICE_ERRORS.invoicingOpportunityNotFound[2],
      error_code: SERVICE_ERRORS.invoicingOpportunityNotFound[1],
    });
  });
});
