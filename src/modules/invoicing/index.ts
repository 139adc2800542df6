import type { OpenAPIHono } from '@hono/zod-openapi';
import { oneApi } from '../../platform/catalogue.js';
import type { AppEnv } from '../../platform/context.js';
import type { ConnectionDatasetArgs } from '../../platform/datasets.js';
import { registerOperations } from '../../platform/operation.js';
import type { VerticalModule } from '../../platform/vertical-module.js';
import { registerInvoicingClientRoutes } from './api/invoicing.client-routes.js';
import { invoicingExamples } from './api/invoicing.examples.js';
import { invoicingFixtures } from './api/invoicing.fixtures.js';
import * as h from './api/invoicing.handlers.js';
import { invoicingSamples } from './api/invoicing.samples.js';
import type { InvoicingDataset } from './model/invoicing.records.js';
import { invoicingDatasetBuild } from './world/invoicing.living.js';

/**
 * The Invoicing vertical under /consumers/{consumer_id}/invoicing. Every operation resolves the
 * consumer's active Invoicing connection (consumers/vertical-connection.ts) and works on that
 * connection's dataset, seeded on first use (invoicing.seed.ts). Its business goes on with the clock:
 * each business day after the first use issues and receives invoices, which appear as they are issued
 * and are paid, partly paid or left open at the instants drawn for them (liveInvoicingDays); there is
 * no invoicing event to announce them.
 */
export function registerInvoicing(app: OpenAPIHono<AppEnv>): void {
  registerOperations(app, [
    h.getContacts,
    h.createContact,
    h.getContact,
    h.getProducts,
    h.createProduct,
    h.getProduct,
    h.getTaxes,
    h.getTax,
    h.getInvoices,
    h.createInvoice,
    h.getInvoice,
    h.uploadDocument,
    h.getOpportunities,
    h.getOpportunity,
    h.getPayments,
    h.createPayment,
    h.updatePayment,
    h.getPaymentMethods,
    h.getBankAccounts,
    h.getBankTransactions,
  ]);
  registerInvoicingClientRoutes(app);
}

/** The Invoicing vertical, as the app composes it (src/verticals.ts). */
export const invoicingModule: VerticalModule<InvoicingDataset, ConnectionDatasetArgs> = {
  key: 'invoicing',
  ...oneApi('Invoicing'),
  envName: 'INVOICING',
  showcase: 7010,
  collection: 'invoicing_datasets',
  build: invoicingDatasetBuild,
  lives: true,
  register: registerInvoicing,
  fixtures: invoicingFixtures,
  samples: invoicingSamples,
  examples: invoicingExamples,
};

// What other modules use of this one.
export { PaymentPaymentStatus, Ref } from './api/invoicing.schemas.js';
