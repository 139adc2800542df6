import type { OpenAPIHono } from '@hono/zod-openapi';
import { oneApi } from '../../platform/catalogue.js';
import type { AppEnv } from '../../platform/context.js';
import type { ConnectionDatasetArgs } from '../../platform/datasets.js';
import { registerOperations } from '../../platform/operation.js';
import type { VerticalModule } from '../../platform/vertical-module.js';
import { posOrdersCube } from './api/pos.cube.js';
import { posDatasetOf } from './api/pos.domain.js';
import { posExamples } from './api/pos.examples.js';
import { posFixtures } from './api/pos.fixtures.js';
import * as handlers from './api/pos.handlers.js';
import { posSamples } from './api/pos.samples.js';
import { posBusinessTask, posOrdersTask } from './api/pos.tasks.js';
import type { PosDataset } from './model/pos.records.js';
import { posDatasetBuild } from './world/pos.seed.js';

/**
 * The Point of Sale vertical under /consumers/{consumer_id}/pos. Every operation resolves the
 * consumer's POS connection and its dataset (pos.context.ts); the rules are in pos.domain.ts and the
 * seeded data in pos.seed.ts. The clock completes the open orders clients declared and announces
 * the business (pos.tasks.ts).
 */
export function registerPos(app: OpenAPIHono<AppEnv>): void {
  registerOperations(app, [
    handlers.getModifiers,
    handlers.getOrders,
    handlers.getOrder,
    handlers.updateOrder,
    handlers.getLocations,
    handlers.getPayments,
    handlers.getSales,
    handlers.getPaymentMethods,
    handlers.getCustomers,
    handlers.createCustomer,
    handlers.getCustomer,
    handlers.getProductCategories,
    handlers.getProducts,
    handlers.getAccountingCategories,
    handlers.getTaxes,
    handlers.getClosure,
    handlers.getObjectives,
    handlers.getReport,
  ]);
}

export { MAX_ANNOUNCED_DAYS } from '../../platform/announcements.js';

/** The Point of Sale vertical, as the app composes it (src/verticals.ts). */
export const posModule: VerticalModule<PosDataset, ConnectionDatasetArgs> = {
  key: 'pos',
  ...oneApi('Point of Sale'),
  envName: 'POS',
  showcase: 9012,
  collection: 'pos_datasets',
  build: posDatasetBuild,
  register: registerPos,
  fixtures: posFixtures,
  samples: posSamples,
  examples: posExamples,
  lives: true,
  tasks: { 'pos-orders': posOrdersTask, 'pos-business': posBusinessTask },
  cubes: [posOrdersCube],
  choices: {
    // The locations of a point of sale connection (its dataset is the connection's own, so a link
    // that has no connection yet cannot list them).
    locations: ({ store }, integration, _consumerid, connection) => {
      if (integration.api !== 'Point of Sale' || connection === null) return null;
      return posDatasetOf(store, connection).locations.map((location) => ({
        value: location.id,
        label: location.name,
      }));
    },
  },
};

export {
  AddressItem,
  ClosureItem,
  DiscountItem,
  dateParam,
  locationIdParam,
  POSLocationItem,
  TotalTaxItem,
} from './api/pos.schemas.js';
// What other modules use of this one.
export type { PosOrder, PosOrderLine, PosPaymentStatusValue } from './model/pos.records.js';
export { Mode, POSLineItemType, POSPaymentStatus, Source } from './model/pos.values.js';
