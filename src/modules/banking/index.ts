import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/context.js';
import { registerBankingClientRoutes } from './banking.client-routes.js';
import * as h from './banking.handlers.js';
import * as r from './banking.routes.js';

/**
 * The Banking vertical under /consumers/{consumer_id}/banking: read-only, over the dataset of the
 * consumer's active Banking connection, seeded on first use (banking.seed.ts).
 */
export function registerBanking(app: OpenAPIHono<AppEnv>): void {
  app.openapi(r.getFinancialInstitutions, h.getFinancialInstitutions);
  app.openapi(r.getAccounts, h.getAccounts);
  app.openapi(r.getAccountTransactions, h.getAccountTransactions);
  app.openapi(r.getAccountCounterparts, h.getAccountCounterparts);
  app.openapi(r.getAttachments, h.getAttachments);
  app.openapi(r.getOpeningBalance, h.getOpeningBalance);
  registerBankingClientRoutes(app);
}
