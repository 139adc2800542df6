import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonContent, scopesFor, secured } from '../../../platform/openapi.js';
import { ConsumerIdParam, FolderQuery } from './accounting.schemas.js';
import {
  BankAccountItemIn,
  BankAccountItemOut,
  BankAccountsQuery,
  BankStatementItemIn,
  BankStatementItemOut,
  ServicePage_BankAccountItemOut_,
} from './bank.schemas.js';

const base = '/consumers/{consumer_id}/accounting';
const tags = ['Accounting'];
const errors = errorResponses([400, 401, 404, 422]);

export const getBankAccounts = createRoute({
  method: 'get',
  path: `${base}/bank-accounts`,
  operationId: 'accounting_get_bank_accounts',
  tags,
  summary: 'List the bank accounts of the folder',
  ...secured('consumer', scopesFor('accounting', 'bank_accounts', 'read')),
  request: { params: ConsumerIdParam, query: BankAccountsQuery },
  responses: { 200: jsonContent(ServicePage_BankAccountItemOut_, 'The bank accounts, by code'), ...errors },
});

export const createBankAccount = createRoute({
  method: 'post',
  path: `${base}/bank-accounts`,
  operationId: 'accounting_create_bank_account',
  tags,
  summary: 'Open a bank account: a bank journal with its ledger account',
  ...secured('consumer', scopesFor('accounting', 'bank_accounts', 'write')),
  request: {
    params: ConsumerIdParam,
    query: FolderQuery,
    body: jsonBody(BankAccountItemIn, 'The bank account'),
  },
  responses: {
    200: jsonContent(BankAccountItemOut, 'The new bank account'),
    // A code already used answers its own 422 (ERROR_BANK_CODE_ALREADY_USED).
    ...errorResponses([400, 401, 404, 422], { serviceError422: true }),
  },
});

export const createBankTransactions = createRoute({
  method: 'post',
  path: `${base}/bank-transactions`,
  operationId: 'accounting_create_bank_transactions',
  tags,
  summary: 'Import a bank statement: one entry per transaction',
  ...secured('consumer', scopesFor('accounting', 'bank_transactions', 'write')),
  request: {
    params: ConsumerIdParam,
    query: FolderQuery,
    body: jsonBody(BankStatementItemIn, 'The statement and its transactions'),
  },
  responses: { 200: jsonContent(BankStatementItemOut, 'The imported statement'), ...errors },
});
