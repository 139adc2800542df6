import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/context.js';
import type { ConnectionDatasetArgs } from '../../platform/datasets.js';
import type { VerticalModule } from '../../platform/vertical-module.js';
import { registerInvoicingClientRoutes } from './invoicing.client-routes.js';
import { invoicingExamples } from './invoicing.examples.js';
import { invoicingFixtures } from './invoicing.fixtures.js';
import * as h from './invoicing.handlers.js';
import type { InvoicingDataset } from './invoicing.records.js';
import * as r from './invoicing.routes.js';
import { invoicingSamples } from './invoicing.samples.js';
import { buildInvoicingDataset } from './invoicing.seed.js';

/**
 * The Invoicing vertical under /consumers/{consumer_id}/invoicing. Every operation resolves the
 * consumer's active Invoicing connection (consumers/vertical-connection.ts) and works on that
 * connection's dataset, seeded on first use (invoicing.seed.ts).
 */
export function registerInvoicing(app: OpenAPIHono<AppEnv>): void {
  app.openapi(r.getContacts, h.getContacts);
  app.openapi(r.createContact, h.createContact);
  app.openapi(r.getContact, h.getContact);
  app.openapi(r.getProducts, h.getProducts);
  app.openapi(r.createProduct, h.createProduct);
  app.openapi(r.getProduct, h.getProduct);
  app.openapi(r.getTaxes, h.getTaxes);
  app.openapi(r.getTax, h.getTax);
  app.openapi(r.getInvoices, h.getInvoices);
  app.openapi(r.createInvoice, h.createInvoice);
  app.openapi(r.getInvoice, h.getInvoice);
  app.openapi(r.uploadDocument, h.uploadDocument);
  app.openapi(r.getOpportunities, h.getOpportunities);
  app.openapi(r.getOpportunity, h.getOpportunity);
  app.openapi(r.getPayments, h.getPayments);
  app.openapi(r.createPayment, h.createPayment);
  app.openapi(r.updatePayment, h.updatePayment);
  app.openapi(r.getPaymentMethods, h.getPaymentMethods);
  app.openapi(r.getBankAccounts, h.getBankAccounts);
  app.openapi(r.getBankTransactions, h.getBankTransactions);
  registerInvoicingClientRoutes(app);
}

/** The Invoicing vertical, as the app composes it (src/verticals.ts). */
export const invoicingModule: VerticalModule<InvoicingDataset, ConnectionDatasetArgs> = {
  key: 'invoicing',
  api: 'Invoicing',
  collection: 'invoicing_datasets',
  build: buildInvoicingDataset,
  register: registerInvoicing,
  fixtures: invoicingFixtures,
  samples: invoicingSamples,
  examples: invoicingExamples,
};

// What other modules use of this one.
export { PaymentPaymentStatus, Ref } from './invoicing.schemas.js';
