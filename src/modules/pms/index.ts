import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/context.js';
import type { ConnectionDatasetArgs } from '../../platform/datasets.js';
import type { VerticalModule } from '../../platform/vertical-module.js';
import { pmsInvoicesCube } from './pms.cube.js';
import { pmsFixtures } from './pms.fixtures.js';
import * as handlers from './pms.handlers.js';
import type { PmsDataset } from './pms.records.js';
import * as routes from './pms.routes.js';
import { pmsSamples } from './pms.samples.js';
import { buildPmsDataset } from './pms.seed.js';

/**
 * The Property Management System vertical under /consumers/{consumer_id}/pms (read only). Every
 * operation resolves the consumer's PMS connection and its dataset (built on first access from
 * pms.seed.ts); the rules are in pms.domain.ts.
 */
export function registerPms(app: OpenAPIHono<AppEnv>): void {
  app.openapi(routes.getOrders, handlers.getOrders);
  app.openapi(routes.getInvoices, handlers.getInvoices);
  app.openapi(routes.getCustomers, handlers.getCustomers);
  app.openapi(routes.getCustomer, handlers.getCustomer);
  app.openapi(routes.getLocations, handlers.getLocations);
  app.openapi(routes.getPayments, handlers.getPayments);
  app.openapi(routes.getPaymentMethods, handlers.getPaymentMethods);
  app.openapi(routes.getAccountingCategories, handlers.getAccountingCategories);
  app.openapi(routes.getClosure, handlers.getClosure);
  app.openapi(routes.getTaxes, handlers.getTaxes);
  app.openapi(routes.getAccountingTransactions, handlers.getAccountingTransactions);
}

/** The Property Management System vertical, as the app composes it (src/verticals.ts). */
export const pmsModule: VerticalModule<PmsDataset, ConnectionDatasetArgs> = {
  key: 'pms',
  api: 'Property Management System',
  // Its stays are POS orders, its wire shapes the POS's (the reference shares them).
  builtOn: ['pos'],
  collection: 'pms_datasets',
  build: buildPmsDataset,
  register: registerPms,
  fixtures: pmsFixtures,
  samples: pmsSamples,
  cubes: [pmsInvoicesCube],
};
