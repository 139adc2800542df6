import type { OpenAPIHono } from '@hono/zod-openapi';
import { oneApi } from '../../platform/catalogue.js';
import type { AppEnv } from '../../platform/context.js';
import type { ConnectionDatasetArgs } from '../../platform/datasets.js';
import { registerOperations } from '../../platform/operation.js';
import type { VerticalModule } from '../../platform/vertical-module.js';
import { pmsInvoicesCube } from './api/pms.cube.js';
import { pmsFixtures } from './api/pms.fixtures.js';
import * as handlers from './api/pms.handlers.js';
import { pmsSamples } from './api/pms.samples.js';
import type { PmsDataset } from './model/pms.records.js';
import { pmsDatasetBuild } from './world/pms.seed.js';

/**
 * The Property Management System vertical under /consumers/{consumer_id}/pms (read only). Every
 * operation resolves the consumer's PMS connection and its dataset (built on first access from
 * pms.seed.ts, its stays going on with the clock); the rules are in pms.domain.ts.
 */
export function registerPms(app: OpenAPIHono<AppEnv>): void {
  registerOperations(app, [
    handlers.getOrders,
    handlers.getInvoices,
    handlers.getCustomers,
    handlers.getCustomer,
    handlers.getLocations,
    handlers.getPayments,
    handlers.getPaymentMethods,
    handlers.getAccountingCategories,
    handlers.getClosure,
    handlers.getTaxes,
    handlers.getAccountingTransactions,
  ]);
}

/** The Property Management System vertical, as the app composes it (src/verticals.ts). */
export const pmsModule: VerticalModule<PmsDataset, ConnectionDatasetArgs> = {
  key: 'pms',
  ...oneApi('Property Management System'),
  envName: 'PMS',
  showcase: 9503,
  // Its stays are POS orders, its wire shapes the POS's (the reference shares them).
  builtOn: ['pos'],
  collection: 'pms_datasets',
  build: pmsDatasetBuild,
  register: registerPms,
  fixtures: pmsFixtures,
  samples: pmsSamples,
  lives: true,
  cubes: [pmsInvoicesCube],
};
