import type { OpenAPIHono } from '@hono/zod-openapi';
import { own } from '../../lib/own.js';
import { announcedThrough, eventListened, oldestAnnounced } from '../../platform/announcements.js';
import { oneApi } from '../../platform/catalogue.js';
import type { AppEnv, Services } from '../../platform/context.js';
import type { ConnectionDatasetArgs } from '../../platform/datasets.js';
import { registerOperations } from '../../platform/operation.js';
import type { TickTask } from '../../platform/ticker.js';
import type { VerticalModule } from '../../platform/vertical-module.js';
import { publishEvent } from '../webhooks/index.js';
import { registerCommerceClientRoutes } from './commerce.client-routes.js';
import { commerceOrdersCube } from './commerce.cube.js';
import { toOrderItem } from './commerce.domain.js';
import { orderCreatedEvent } from './commerce.events.js';
import { commerceExamples } from './commerce.examples.js';
import { commerceFixtures } from './commerce.fixtures.js';
import * as handlers from './commerce.handlers.js';
import type { CommerceDataset } from './commerce.records.js';
import { commerceSamples } from './commerce.samples.js';
import { buildCommerceDataset, livingOrders, placedStatus } from './commerce.seed.js';

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

const COMMERCE_DATASETS = 'commerce_datasets';
/** The world's note of the last instant whose eCommerce business was announced (sandbox_state). */
const COMMERCE_BUSINESS = 'business:commerce';

export { MAX_ANNOUNCED_DAYS } from '../../platform/announcements.js';

/**
 * Background task: announces the business as it happens: commerce.order.created for each order the
 * shop's customers placed (see liveCommerceDays) once the clock passes its placing, on every dataset
 * in use, to the webhooks that listen, with the fields the API's own create publishes (the order as it
 * was placed). The world keeps the last instant announced, so a restart announces nothing twice.
 * Nothing is built when no webhook listens.
 */
export function commerceBusinessTask(services: Services): TickTask {
  return (store) => {
    // What it writes is the sandbox's own bookkeeping (the business announced, the events of it,
    // bounded by the outbox): counted, never refused, or a full world would redo it every run.
    store.bookkeeping();
    const world = store.world;
    const now = store.builtAt();
    const through = announcedThrough(world.sandbox_state[COMMERCE_BUSINESS]?.through);
    if (through !== undefined && through >= now) return;
    if (eventListened(world, 'commerce.order.created')) {
      const after = [through ?? '', oldestAnnounced(now)].reduce((a, b) => (a > b ? a : b));
      for (const key of store.generatedKeys(COMMERCE_DATASETS)) {
        const args = store.generatedArgs(COMMERCE_DATASETS, key) as ConnectionDatasetArgs | null | undefined;
        const dataset = args ? store.open<CommerceDataset>(COMMERCE_DATASETS, key) : undefined;
        const consumer = dataset ? own(world.consumers, dataset.consumerid) : undefined;
        if (!args || !dataset || !consumer) continue;
        for (const order of livingOrders(dataset, args, after, now)) {
          const placed = { ...toOrderItem(dataset, order), status: placedStatus(order) };
          publishEvent(
            { ...services, store },
            orderCreatedEvent(consumer, dataset.connectionid, dataset.integrationid, placed),
          );
        }
      }
    }
    world.sandbox_state[COMMERCE_BUSINESS] = { through: now };
  };
}

/** The eCommerce vertical, as the app composes it (src/verticals.ts). */
export const commerceModule: VerticalModule<CommerceDataset, ConnectionDatasetArgs> = {
  key: 'commerce',
  ...oneApi('eCommerce'),
  envName: 'ECOMMERCE',
  showcase: 90301,
  collection: COMMERCE_DATASETS,
  build: buildCommerceDataset,
  register: registerCommerce,
  fixtures: commerceFixtures,
  samples: commerceSamples,
  examples: commerceExamples,
  lives: true,
  tasks: { 'commerce-business': commerceBusinessTask },
  cubes: [commerceOrdersCube],
};
