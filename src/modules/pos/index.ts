import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv, Services } from '../../platform/context.js';
import type { TickTask } from '../../platform/ticker.js';
import { settleDataset } from './pos.context.js';
import * as handlers from './pos.handlers.js';
import * as routes from './pos.routes.js';

/**
 * The Point of Sale vertical under /consumers/{consumer_id}/pos. Every operation resolves the
 * consumer's POS connection and its dataset (pos.context.ts); the rules are in pos.domain.ts and the
 * seeded data in pos.seed.ts. The clock completes open orders: the background task below, and every
 * POS request for its own dataset.
 */
export function registerPos(app: OpenAPIHono<AppEnv>): void {
  app.openapi(routes.getModifiers, handlers.getModifiers);
  app.openapi(routes.getOrders, handlers.getOrders);
  app.openapi(routes.getOrder, handlers.getOrder);
  app.openapi(routes.updateOrder, handlers.updateOrder);
  app.openapi(routes.getLocations, handlers.getLocations);
  app.openapi(routes.getPayments, handlers.getPayments);
  app.openapi(routes.getSales, handlers.getSales);
  app.openapi(routes.getPaymentMethods, handlers.getPaymentMethods);
  app.openapi(routes.getCustomers, handlers.getCustomers);
  app.openapi(routes.createCustomer, handlers.createCustomer);
  app.openapi(routes.getCustomer, handlers.getCustomer);
  app.openapi(routes.getProductCategories, handlers.getProductCategories);
  app.openapi(routes.getProducts, handlers.getProducts);
  app.openapi(routes.getAccountingCategories, handlers.getAccountingCategories);
  app.openapi(routes.getTaxes, handlers.getTaxes);
  app.openapi(routes.getClosure, handlers.getClosure);
  app.openapi(routes.getObjectives, handlers.getObjectives);
  app.openapi(routes.getReport, handlers.getReport);
}

/**
 * Background task: open orders of the datasets built so far complete as the sandbox clock passes
 * their time.
 */
export function posOrdersTask(services: Services): TickTask {
  return (store) => {
    // The events published go out by themselves: a write that queues deliveries kicks the worker.
    const world = store.world;
    for (const dataset of Object.values(world.pos_datasets))
      settleDataset({ ...services, store }, world, dataset);
  };
}
