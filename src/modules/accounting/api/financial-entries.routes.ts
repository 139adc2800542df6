import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonContent, scopesFor, secured } from '../../../platform/openapi.js';
import { ConsumerIdParam } from './accounting.schemas.js';
import {
  FinancialEntryItemIn,
  FinancialEntryItemInOld,
  FinancialEntryItemOut,
  FinancialEntryItemOutOld,
  FinancialEntryOldQuery,
  FinancialEntryQuery,
} from './financial-entries.schemas.js';

const base = '/consumers/{consumer_id}/accounting';
const tags = ['Accounting'];
const errors = errorResponses([400, 401, 404, 422]);

export const createFinancialEntries = createRoute({
  method: 'post',
  path: `${base}/financial-entries`,
  operationId: 'accounting_create_financial_entries',
  tags,
  summary: 'Book a receipt or payment in a bank or cash journal',
  ...secured('consumer', scopesFor('accounting', 'journal_entries', 'write')),
  request: {
    params: ConsumerIdParam,
    query: FinancialEntryQuery,
    body: jsonBody(FinancialEntryItemIn, 'The financial entry'),
  },
  responses: { 200: jsonContent(FinancialEntryItemOut, 'The booked entry'), ...errors },
});

/** The deprecated shape of the same operation (not in the current reference; no MCP scopes). */
export const createFinancialEntryOld = createRoute({
  method: 'post',
  path: `${base}/financial-entry`,
  operationId: 'accounting_create_financial_entry',
  tags,
  summary: 'Book a receipt or payment in a bank or cash journal (deprecated shape)',
  deprecated: true,
  ...secured('consumer', null, 'accounting'),
  request: {
    params: ConsumerIdParam,
    query: FinancialEntryOldQuery,
    body: jsonBody(FinancialEntryItemInOld, 'The financial entry'),
  },
  responses: { 200: jsonContent(FinancialEntryItemOutOld, 'The booked entry'), ...errors },
});
