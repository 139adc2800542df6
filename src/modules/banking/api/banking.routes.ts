import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonContent, scopesFor, secured } from '../../../platform/openapi.js';
import {
  AttachmentsQuery,
  BankingOpeningBalanceItem,
  ConsumerIdParam,
  CounterpartsQuery,
  OpeningBalanceQuery,
  PageOnlyQuery,
  ServicePage_AttachmentItemOut_,
  ServicePage_BankingAccountItem_,
  ServicePage_BankingCounterPartItem_,
  ServicePage_BankingFinancialInstitutionItem_,
  ServicePage_BankingTransactionItem_,
  TransactionsQuery,
} from './banking.schemas.js';

/** Routes of the Banking vertical under /consumers/{consumer_id}/banking (all reads). */

const base = '/consumers/{consumer_id}/banking';
const errors = errorResponses([400, 401, 404, 422]);
const TAG = 'Banking';

export const getFinancialInstitutions = createRoute({
  method: 'get',
  path: `${base}/financial-institutions`,
  operationId: 'banking_get_financial_institutions',
  tags: [TAG, 'Financial institutions'],
  summary: 'List the banks the end user gave access to',
  ...secured('consumer', scopesFor('banking', 'financial_institutions', 'read')),
  request: { params: ConsumerIdParam, query: PageOnlyQuery },
  responses: { 200: jsonContent(ServicePage_BankingFinancialInstitutionItem_, 'The banks'), ...errors },
});

export const getAccounts = createRoute({
  method: 'get',
  path: `${base}/accounts`,
  operationId: 'banking_get_accounts',
  tags: [TAG, 'Banking accounts'],
  summary: 'List the bank accounts',
  ...secured('consumer', scopesFor('banking', 'banking_accounts', 'read')),
  request: { params: ConsumerIdParam, query: PageOnlyQuery },
  responses: {
    200: jsonContent(ServicePage_BankingAccountItem_, 'The accounts with their balances'),
    ...errors,
  },
});

export const getAccountTransactions = createRoute({
  method: 'get',
  path: `${base}/transactions`,
  operationId: 'banking_get_account_transactions',
  tags: [TAG, 'Transactions'],
  summary: 'List the transactions of an account',
  ...secured('consumer', scopesFor('banking', 'transactions', 'read')),
  request: { params: ConsumerIdParam, query: TransactionsQuery },
  responses: {
    200: jsonContent(ServicePage_BankingTransactionItem_, 'The transactions, newest first'),
    ...errors,
  },
});

export const getAccountCounterparts = createRoute({
  method: 'get',
  path: `${base}/counterparts`,
  operationId: 'banking_get_account_counterparts',
  tags: [TAG, 'Banking accounts'],
  summary: 'List the counterparts found in the transactions',
  ...secured('consumer', scopesFor('banking', 'banking_accounts', 'read')),
  request: { params: ConsumerIdParam, query: CounterpartsQuery },
  responses: {
    200: jsonContent(ServicePage_BankingCounterPartItem_, 'The counterparts, by name'),
    ...errors,
  },
});

export const getAttachments = createRoute({
  method: 'get',
  path: `${base}/attachments`,
  operationId: 'banking_get_attachments',
  tags: [TAG, 'Attachments'],
  summary: 'List the documents attached to a transaction',
  ...secured('consumer', scopesFor('banking', 'attachments', 'read')),
  request: { params: ConsumerIdParam, query: AttachmentsQuery },
  responses: { 200: jsonContent(ServicePage_AttachmentItemOut_, 'The documents, base64'), ...errors },
});

export const getOpeningBalance = createRoute({
  method: 'get',
  path: `${base}/opening-balance`,
  operationId: 'banking_get_opening_balance',
  tags: [TAG, 'Banking accounts'],
  summary: 'Get the balance of an account at the start of a day',
  ...secured('consumer', scopesFor('banking', 'banking_accounts', 'read')),
  request: { params: ConsumerIdParam, query: OpeningBalanceQuery },
  responses: { 200: jsonContent(BankingOpeningBalanceItem, 'The opening balance'), ...errors },
});
