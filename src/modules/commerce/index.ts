import type { OpenAPIHono } from '@hono/zod-openapi';
import { oneApi } from '../../platform/catalogue.js';
import type { AppEnv } from '../../platform/context.js';
import type { ConnectionDatasetArgs } from '../../platform/datasets.js';
import { registerOperations } from '../../platform/operation.js';
import type { VerticalModule } from '../../platform/vertical-module.js';
import { registerCommerceClientRoutes } from './api/commerce.client-routes.js';
import { commerceOrdersCube } from './api/commerce.cube.js';
import { commerceExamples } from './api/commerce.examples.js';
import { commerceFixtures } from './api/commerce.fixtures.js';
import * as handlers from './api/commerce.handlers.js';
import { commerceSamples } from './api/commerce.samples.js';
import { COMMERCE_DATASETS, commerceBusinessTask } from './api/commerce.tasks.js';
import type { CommerceDataset } from './model/commerce.records.js';
import { commerceDatasetBuild } from './world/commerce.seed.js';

/**
 * The eCommerce vertical under /consumers/{consumer_id}/commerce. Every operation resolves the
 * consumer's eCommerce connection and its dataset (built on first access from commerce.seed.ts, and
 * again as the clock moves: the shop's business goes on as it happens); the rules are in
 * commerce.domain.ts.
 */
export function registerCommerce(app: OpenAPIHono<AppEnv>): void {
  registerOperations(app, [
    handlers.getCustomers,
    handlers.getCustomer,
    handlers.getProducts,
    handlers.getProduct,
  ]);
  registerCommerceClientRoutes(app);
  registerOperations(app, [
    handlers.getVariant,
    handlers.updateVariantQuantity,
    handlers.getLocations,
    handlers.getOrders,
    handlers.createOrder,
    handlers.getOrder,
    handlers.getPaymentMethods,
    handlers.getProductCategories,
    handlers.getTaxes,
    handlers.getCountries,
  ]);
}

export { MAX_ANNOUNCED_DAYS } from '../../platform/announcements.js';

/** The eCommerce vertical, as the app composes it (src/verticals.ts). */
export const commerceModule: VerticalModule<CommerceDataset, ConnectionDatasetArgs> = {
  key: 'commerce',
  ...oneApi('eCommerce'),
  envName: 'ECOMMERCE',
  showcase: 90301,
  collection: COMMERCE_DATASETS,
  build: commerceDatasetBuild,
  register: registerCommerce,
  fixtures: commerceFixtures,
  samples: commerceSamples,
  examples: commerceExamples,
  lives: true,
  tasks: { 'commerce-business': commerceBusinessTask },
  cubes: [commerceOrdersCube],
};
