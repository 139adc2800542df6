import { paginate } from '../../../lib/pagination.js';
import { operation } from '../../../platform/operation.js';
import { writeContext } from '../../../platform/request-context.js';
import {
  analyticFigures,
  buildAnalyticAccount,
  buildAnalyticAccountUpdate,
  mainAnalyticPlan,
} from '../model/ledger/analytics.js';
import { applyChange } from '../model/ledger/posting.js';
import { accountingLedger } from './accounting.context.js';
import {
  draftOf,
  listAnalyticAccounts,
  patchOf,
  requireAnalyticAccount,
  toAnalyticAccount,
  toMonoAnalyticAccount,
} from './analytic-accounts.domain.js';
import * as routes from './analytic-accounts.routes.js';

export const getAnalyticAccounts = operation(
  accountingLedger,
  routes.getAnalyticAccounts,
  (c, { data: { ledger } }) => {
    const { page, size } = c.req.valid('query');
    const figures = analyticFigures(ledger);
    const accounts = listAnalyticAccounts(ledger).map((a) => toMonoAnalyticAccount(a, figures));
    return c.json(paginate(accounts, page, size), 200);
  },
);

export const getAnalyticAccountsMultiPlans = operation(
  accountingLedger,
  routes.getAnalyticAccountsMultiPlans,
  (c, { data: { ledger } }) => {
    const { page, size } = c.req.valid('query');
    const figures = analyticFigures(ledger);
    const accounts = listAnalyticAccounts(ledger).map((a) => toAnalyticAccount(a, figures));
    return c.json(paginate(accounts, page, size), 200);
  },
);

export const createAnalyticAccount = operation(
  accountingLedger,
  routes.createAnalyticAccount,
  (c, { data: { ledger } }) => {
    const ctx = writeContext(c);
    const plan = mainAnalyticPlan(ledger);
    const { account, change } = buildAnalyticAccount(ledger, plan.id, draftOf(c.req.valid('json')), ctx);
    applyChange(ledger, change, ctx.now);
    c.set('createdEntityId', account.id);
    return c.json(toMonoAnalyticAccount(account, analyticFigures(ledger)), 200);
  },
);

export const createAnalyticAccountMultiPlans = operation(
  accountingLedger,
  routes.createAnalyticAccountMultiPlans,
  (c, { data: { ledger } }) => {
    const ctx = writeContext(c);
    const { analytic_plan } = c.req.valid('param');
    const { account, change } = buildAnalyticAccount(
      ledger,
      analytic_plan,
      draftOf(c.req.valid('json')),
      ctx,
    );
    applyChange(ledger, change, ctx.now);
    c.set('createdEntityId', account.id);
    return c.json(toAnalyticAccount(account, analyticFigures(ledger)), 200);
  },
);

export const getAnalyticAccount = operation(
  accountingLedger,
  routes.getAnalyticAccount,
  (c, { data: { ledger } }) => {
    const account = requireAnalyticAccount(ledger, c.req.valid('param').analytic_account_id);
    return c.json(toMonoAnalyticAccount(account, analyticFigures(ledger)), 200);
  },
);

export const getAnalyticAccountMultiPlans = operation(
  accountingLedger,
  routes.getAnalyticAccountMultiPlans,
  (c, { data: { ledger } }) => {
    const { analytic_account_id, analytic_plan } = c.req.valid('param');
    const account = requireAnalyticAccount(ledger, analytic_account_id, analytic_plan);
    return c.json(toAnalyticAccount(account, analyticFigures(ledger)), 200);
  },
);

export const updateAnalyticAccount = operation(
  accountingLedger,
  routes.updateAnalyticAccount,
  (c, { data: { ledger } }) => {
    const ctx = writeContext(c);
    const current = requireAnalyticAccount(ledger, c.req.valid('param').analytic_account_id);
    const { account, change } = buildAnalyticAccountUpdate(ledger, current, patchOf(c.req.valid('json')));
    applyChange(ledger, change, ctx.now);
    return c.json(toMonoAnalyticAccount(account, analyticFigures(ledger)), 200);
  },
);

export const updateAnalyticAccountMultiPlans = operation(
  accountingLedger,
  routes.updateAnalyticAccountMultiPlans,
  (c, { data: { ledger } }) => {
    const ctx = writeContext(c);
    const { analytic_account_id, analytic_plan } = c.req.valid('param');
    const current = requireAnalyticAccount(ledger, analytic_account_id, analytic_plan);
    const { account, change } = buildAnalyticAccountUpdate(ledger, current, patchOf(c.req.valid('json')));
    applyChange(ledger, change, ctx.now);
    return c.json(toAnalyticAccount(account, analyticFigures(ledger)), 200);
  },
);
