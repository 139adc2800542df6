import type { RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../context.js';
import { paginate } from '../../lib/pagination.js';
import { postingContext, requireAccounting } from './accounting.context.js';
import {
  draftOf,
  listAnalyticAccounts,
  patchOf,
  requireAnalyticAccount,
  toAnalyticAccount,
  toMonoAnalyticAccount,
} from './analytic-accounts.domain.js';
import type * as routes from './analytic-accounts.routes.js';
import {
  analyticFigures,
  buildAnalyticAccount,
  buildAnalyticAccountUpdate,
  mainAnalyticPlan,
} from './ledger/analytics.js';
import { applyChange } from './ledger/posting.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

export const getAnalyticAccounts: Handler<'getAnalyticAccounts'> = (c) => {
  const { ledger } = requireAccounting(c, 'accounting_get_analytic_accounts');
  const { page, size } = c.req.valid('query');
  const figures = analyticFigures(ledger);
  const accounts = listAnalyticAccounts(ledger).map((a) => toMonoAnalyticAccount(a, figures));
  return c.json(paginate(accounts, page, size), 200);
};

export const getAnalyticAccountsMultiPlans: Handler<'getAnalyticAccountsMultiPlans'> = (c) => {
  const { ledger } = requireAccounting(c, 'accounting_get_analytic_accounts_multi_plans');
  const { page, size } = c.req.valid('query');
  const figures = analyticFigures(ledger);
  const accounts = listAnalyticAccounts(ledger).map((a) => toAnalyticAccount(a, figures));
  return c.json(paginate(accounts, page, size), 200);
};

export const createAnalyticAccount: Handler<'createAnalyticAccount'> = async (c) => {
  const { ledger } = requireAccounting(c, 'accounting_create_analytic_account');
  const ctx = postingContext(c);
  const plan = mainAnalyticPlan(ledger);
  const { account, change } = buildAnalyticAccount(ledger, plan.id, draftOf(c.req.valid('json')), ctx);
  applyChange(ledger, change, ctx.now);
  c.set('createdEntityId', account.id);
  return c.json(toMonoAnalyticAccount(account, analyticFigures(ledger)), 200);
};

export const createAnalyticAccountMultiPlans: Handler<'createAnalyticAccountMultiPlans'> = async (c) => {
  const { ledger } = requireAccounting(c, 'accounting_create_analytic_account_multi_plans');
  const ctx = postingContext(c);
  const { analytic_plan } = c.req.valid('param');
  const { account, change } = buildAnalyticAccount(ledger, analytic_plan, draftOf(c.req.valid('json')), ctx);
  applyChange(ledger, change, ctx.now);
  c.set('createdEntityId', account.id);
  return c.json(toAnalyticAccount(account, analyticFigures(ledger)), 200);
};

export const getAnalyticAccount: Handler<'getAnalyticAccount'> = (c) => {
  const { ledger } = requireAccounting(c, 'accounting_get_analytic_account');
  const account = requireAnalyticAccount(ledger, c.req.valid('param').analytic_account_id);
  return c.json(toMonoAnalyticAccount(account, analyticFigures(ledger)), 200);
};

export const getAnalyticAccountMultiPlans: Handler<'getAnalyticAccountMultiPlans'> = (c) => {
  const { ledger } = requireAccounting(c, 'accounting_get_analytic_account_multi_plans');
  const { analytic_account_id, analytic_plan } = c.req.valid('param');
  const account = requireAnalyticAccount(ledger, analytic_account_id, analytic_plan);
  return c.json(toAnalyticAccount(account, analyticFigures(ledger)), 200);
};

export const updateAnalyticAccount: Handler<'updateAnalyticAccount'> = async (c) => {
  const { ledger } = requireAccounting(c, 'accounting_update_analytic_account');
  const ctx = postingContext(c);
  const current = requireAnalyticAccount(ledger, c.req.valid('param').analytic_account_id);
  const { account, change } = buildAnalyticAccountUpdate(ledger, current, patchOf(c.req.valid('json')));
  applyChange(ledger, change, ctx.now);
  return c.json(toMonoAnalyticAccount(account, analyticFigures(ledger)), 200);
};

export const updateAnalyticAccountMultiPlans: Handler<'updateAnalyticAccountMultiPlans'> = async (c) => {
  const { ledger } = requireAccounting(c, 'accounting_update_analytic_account_multi_plans');
  const ctx = postingContext(c);
  const { analytic_account_id, analytic_plan } = c.req.valid('param');
  const current = requireAnalyticAccount(ledger, analytic_account_id, analytic_plan);
  const { account, change } = buildAnalyticAccountUpdate(ledger, current, patchOf(c.req.valid('json')));
  applyChange(ledger, change, ctx.now);
  return c.json(toAnalyticAccount(account, analyticFigures(ledger)), 200);
};
