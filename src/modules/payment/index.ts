import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/context.js';
import * as h from './payment.handlers.js';
import * as r from './payment.routes.js';

/**
 * The Payment vertical under /consumers/{consumer_id}/payment: read-only, over the dataset of the
 * consumer's active Payment connection, seeded on first use (payment.seed.ts).
 */
export function registerPayment(app: OpenAPIHono<AppEnv>): void {
  app.openapi(r.getLocations, h.getLocations);
  app.openapi(r.getBalances, h.getBalances);
  app.openapi(r.getTransactions, h.getTransactions);
  app.openapi(r.getPayments, h.getPayments);
  app.openapi(r.getPayment, h.getPayment);
  app.openapi(r.getRefunds, h.getRefunds);
  app.openapi(r.getPayouts, h.getPayouts);
}
