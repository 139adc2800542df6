import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonContent, scopesFor, secured } from '../../../platform/openapi.js';
import { ConsumerIdParam, FolderQuery } from './accounting.schemas.js';
import {
  AnalyticAccountIdParam,
  AnalyticAccountInPlanParam,
  AnalyticAccountItemIn,
  AnalyticAccountItemOut,
  AnalyticAccountItemOutMultiAnalyticPlans,
  AnalyticAccountItemUpdate,
  AnalyticAccountsQuery,
  AnalyticPlanParam,
  ServicePage_AnalyticAccountItemOut_,
  ServicePage_AnalyticAccountItemOutMultiAnalyticPlans_,
} from './analytic-accounts.schemas.js';

const base = '/consumers/{consumer_id}/accounting/analytic-accounts';
const tags = ['Accounting'];
const errors = errorResponses([400, 401, 404, 422]);
/** A code already used in the plan answers 409 (ERROR_ANALYTIC_ACCOUNT_ALREADY_EXISTS). */
const writeErrors = errorResponses([400, 401, 404, 409, 422]);

export const getAnalyticAccounts = createRoute({
  method: 'get',
  path: base,
  operationId: 'accounting_get_analytic_accounts',
  tags,
  summary: 'List the analytic accounts with their figures',
  ...secured('consumer', scopesFor('accounting', 'analytic_accounts', 'read')),
  request: { params: ConsumerIdParam, query: AnalyticAccountsQuery },
  responses: { 200: jsonContent(ServicePage_AnalyticAccountItemOut_, 'The analytic accounts'), ...errors },
});

export const createAnalyticAccount = createRoute({
  method: 'post',
  path: base,
  operationId: 'accounting_create_analytic_account',
  tags,
  summary: 'Create an analytic account in the main analytic plan',
  ...secured('consumer', scopesFor('accounting', 'analytic_accounts', 'write')),
  request: {
    params: ConsumerIdParam,
    query: FolderQuery,
    body: jsonBody(AnalyticAccountItemIn, 'The analytic account'),
  },
  responses: { 200: jsonContent(AnalyticAccountItemOut, 'The new analytic account'), ...writeErrors },
});

export const getAnalyticAccountsMultiPlans = createRoute({
  method: 'get',
  path: `${base}/multi-analytic-plans`,
  operationId: 'accounting_get_analytic_accounts_multi_plans',
  tags,
  summary: 'List the analytic accounts of every plan, with their plan and figures',
  ...secured('consumer', scopesFor('accounting', 'analytic_accounts', 'read')),
  request: { params: ConsumerIdParam, query: AnalyticAccountsQuery },
  responses: {
    200: jsonContent(ServicePage_AnalyticAccountItemOutMultiAnalyticPlans_, 'The analytic accounts'),
    ...errors,
  },
});

export const createAnalyticAccountMultiPlans = createRoute({
  method: 'post',
  path: `${base}/multi-analytic-plans/{analytic_plan}`,
  operationId: 'accounting_create_analytic_account_multi_plans',
  tags,
  summary: 'Create an analytic account in a plan',
  ...secured('consumer', scopesFor('accounting', 'analytic_accounts', 'write')),
  request: {
    params: AnalyticPlanParam,
    query: FolderQuery,
    body: jsonBody(AnalyticAccountItemIn, 'The analytic account'),
  },
  responses: {
    200: jsonContent(AnalyticAccountItemOutMultiAnalyticPlans, 'The new analytic account'),
    ...writeErrors,
  },
});

export const getAnalyticAccount = createRoute({
  method: 'get',
  path: `${base}/{analytic_account_id}`,
  operationId: 'accounting_get_analytic_account',
  tags,
  summary: 'Get one analytic account with its figures',
  ...secured('consumer', scopesFor('accounting', 'analytic_accounts', 'read')),
  request: { params: AnalyticAccountIdParam, query: FolderQuery },
  responses: { 200: jsonContent(AnalyticAccountItemOut, 'The analytic account'), ...errors },
});

export const updateAnalyticAccount = createRoute({
  method: 'patch',
  path: `${base}/{analytic_account_id}`,
  operationId: 'accounting_update_analytic_account',
  tags,
  summary: 'Update an analytic account',
  ...secured('consumer', scopesFor('accounting', 'analytic_accounts', 'write')),
  request: {
    params: AnalyticAccountIdParam,
    query: FolderQuery,
    body: jsonBody(AnalyticAccountItemUpdate, 'The fields to change'),
  },
  responses: { 200: jsonContent(AnalyticAccountItemOut, 'The analytic account'), ...writeErrors },
});

export const getAnalyticAccountMultiPlans = createRoute({
  method: 'get',
  path: `${base}/{analytic_account_id}/multi-analytic-plans/{analytic_plan}`,
  operationId: 'accounting_get_analytic_account_multi_plans',
  tags,
  summary: 'Get one analytic account of a plan with its figures',
  ...secured('consumer', scopesFor('accounting', 'analytic_accounts', 'read')),
  request: { params: AnalyticAccountInPlanParam, query: FolderQuery },
  responses: {
    200: jsonContent(AnalyticAccountItemOutMultiAnalyticPlans, 'The analytic account'),
    ...errors,
  },
});

export const updateAnalyticAccountMultiPlans = createRoute({
  method: 'patch',
  path: `${base}/{analytic_account_id}/multi-analytic-plans/{analytic_plan}`,
  operationId: 'accounting_update_analytic_account_multi_plans',
  tags,
  summary: 'Update an analytic account of a plan',
  ...secured('consumer', scopesFor('accounting', 'analytic_accounts', 'write')),
  request: {
    params: AnalyticAccountInPlanParam,
    query: FolderQuery,
    body: jsonBody(AnalyticAccountItemUpdate, 'The fields to change'),
  },
  responses: {
    200: jsonContent(AnalyticAccountItemOutMultiAnalyticPlans, 'The analytic account'),
    ...writeErrors,
  },
});
