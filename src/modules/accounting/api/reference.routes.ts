import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonContent, scopesFor, secured } from '../../../platform/openapi.js';
import { ConsumerIdParam, FolderQuery } from './accounting.schemas.js';
import {
  AccountBalanceFilter,
  AccountItem,
  ChartQuery,
  FolderIdParam,
  FolderItem,
  Journal,
  JournalIn,
  LedgerAccountItemIn,
  ReferencePageQuery,
  ServicePage_AccountBalance_,
  ServicePage_AccountItem_,
  ServicePage_AccountingPaymentMethod_,
  ServicePage_AccountingPaymentTerms_,
  ServicePage_AccountingVatCode_,
  ServicePage_AnalyticPlanItem_,
  ServicePage_BookYear_,
  ServicePage_Journal_,
  ServicePage_SchemeItem_,
} from './reference.schemas.js';

const base = '/consumers/{consumer_id}/accounting';
const errors = errorResponses([400, 401, 404, 422]);

const pagedList = <T extends z.ZodType>(
  path: string,
  operationId: string,
  summary: string,
  scopes: readonly string[],
  page: T,
) =>
  createRoute({
    method: 'get',
    path: `${base}${path}`,
    operationId,
    tags: ['Accounting'],
    summary,
    ...secured('consumer', scopes),
    request: { params: ConsumerIdParam, query: ReferencePageQuery },
    responses: { 200: jsonContent(page, summary), ...errors },
  });

export const getFolders = createRoute({
  method: 'get',
  path: `${base}/folders`,
  operationId: 'accounting_get_folders',
  tags: ['Accounting'],
  summary: 'List the folders (companies) the accounting connection reaches',
  ...secured('consumer', scopesFor('accounting', 'folders', 'read')),
  request: { params: ConsumerIdParam },
  responses: { 200: jsonContent(z.array(FolderItem), 'The folders'), ...errors },
});

export const getFolder = createRoute({
  method: 'get',
  path: `${base}/folders/{folder_id}`,
  operationId: 'accounting_get_folder',
  tags: ['Accounting'],
  summary: 'Get one folder',
  ...secured('consumer', scopesFor('accounting', 'folders', 'read')),
  request: { params: FolderIdParam },
  responses: { 200: jsonContent(FolderItem, 'The folder'), ...errors },
});

export const getBookyears = pagedList(
  '/bookyears',
  'accounting_get_bookyears',
  'List the book years of the folder',
  scopesFor('accounting', 'bookyears', 'read'),
  ServicePage_BookYear_,
);

export const getAnalyticPlans = pagedList(
  '/analytic-plans',
  'accounting_get_analytic_plans',
  'List the analytic plans of the folder',
  scopesFor('accounting', 'analytic_plans', 'read'),
  ServicePage_AnalyticPlanItem_,
);

export const getSchemes = pagedList(
  '/schemes',
  'accounting_get_schemes',
  'List the reporting schemes of the folder',
  scopesFor('accounting', 'schemes', 'read'),
  ServicePage_SchemeItem_,
);

export const getVatCodes = pagedList(
  '/vat-codes',
  'accounting_get_vat_codes',
  'List the VAT codes of the folder',
  scopesFor('accounting', 'vat_codes', 'read'),
  ServicePage_AccountingVatCode_,
);

export const getPaymentMethods = pagedList(
  '/payment-methods',
  'accounting_get_payment_methods',
  'List the payment methods of the folder',
  scopesFor('accounting', 'invoices', 'read'),
  ServicePage_AccountingPaymentMethod_,
);

export const getPaymentTerms = pagedList(
  '/payment-terms',
  'accounting_get_payment_terms',
  'List the payment terms of the folder',
  scopesFor('accounting', 'invoices', 'read'),
  ServicePage_AccountingPaymentTerms_,
);

export const getJournals = pagedList(
  '/journals',
  'accounting_get_journals',
  'List the journals of the folder',
  scopesFor('accounting', 'journals', 'read'),
  ServicePage_Journal_,
);

export const createJournal = createRoute({
  method: 'post',
  path: `${base}/journal`,
  operationId: 'accounting_create_journal',
  tags: ['Accounting'],
  summary: 'Create a journal',
  ...secured('consumer', scopesFor('accounting', 'journals', 'write')),
  request: { params: ConsumerIdParam, query: FolderQuery, body: jsonBody(JournalIn, 'The new journal') },
  responses: { 200: jsonContent(Journal, 'The created journal'), ...errors },
});

export const getChartOfAccounts = createRoute({
  method: 'get',
  path: `${base}/chart-of-accounts`,
  operationId: 'accounting_get_chart_of_accounts',
  tags: ['Accounting'],
  summary: 'List the chart of accounts, by class or type',
  ...secured('consumer', scopesFor('accounting', 'ledger_accounts', 'read')),
  request: { params: ConsumerIdParam, query: ChartQuery },
  responses: { 200: jsonContent(ServicePage_AccountItem_, 'The accounts, by number'), ...errors },
});

export const getAccountsBalances = createRoute({
  method: 'post',
  path: `${base}/chart-of-accounts/balance`,
  operationId: 'accounting_get_accounts_balances',
  tags: ['Accounting'],
  summary: 'Get the balances of accounts at the end of a month',
  ...secured('consumer', scopesFor('accounting', 'ledger_accounts', 'read')),
  request: {
    params: ConsumerIdParam,
    query: ReferencePageQuery,
    body: jsonBody(AccountBalanceFilter, 'The accounts and the period'),
  },
  responses: { 200: jsonContent(ServicePage_AccountBalance_, 'The balances, by account number'), ...errors },
});

export const createLedgerAccount = createRoute({
  method: 'post',
  path: `${base}/accounts`,
  operationId: 'accounting_create_ledger_account',
  tags: ['Accounting'],
  summary: 'Add an account to the chart of accounts',
  ...secured('consumer', scopesFor('accounting', 'ledger_accounts', 'write')),
  request: {
    params: ConsumerIdParam,
    query: FolderQuery,
    body: jsonBody(LedgerAccountItemIn, 'The new account'),
  },
  responses: { 200: jsonContent(AccountItem, 'The created account'), ...errors },
});
