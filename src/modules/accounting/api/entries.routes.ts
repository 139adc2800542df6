import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonContent, scopesFor, secured } from '../../../platform/openapi.js';
import { ConsumerIdParam, FolderQuery } from './accounting.schemas.js';
import {
  EntriesQuery,
  EntryCreateQuery,
  EntryIdParam,
  GenericJournalEntry,
  JournalEntryIn,
  JournalEntryMultiAnalyticPlan,
  MatchingIn,
  MatchingOut,
  MultipleMatchingIn,
  MultipleMatchingOut,
  OutstandingsQuery,
  ServicePage_JournalEntryMonoAnalyticPlan_,
  ServicePage_JournalEntryMultiAnalyticPlan_,
  ServicePage_OutstandingItem_,
} from './entries.schemas.js';

const base = '/consumers/{consumer_id}/accounting';
const tags = ['Accounting'];
const errors = errorResponses([400, 401, 404, 422]);
/** Booking an entry also answers the service's own 422 errors (ERROR_ENTRY_NOT_BALANCED...). */
const entryWriteErrors = errorResponses([400, 401, 404, 422], { serviceError422: true });

export const getJournalEntries = createRoute({
  method: 'get',
  path: `${base}/journal/entries`,
  operationId: 'accounting_get_journal_entries',
  tags,
  summary: 'List journal entries',
  ...secured('consumer', scopesFor('accounting', 'journal_entries', 'read')),
  request: { params: ConsumerIdParam, query: EntriesQuery },
  responses: {
    200: jsonContent(ServicePage_JournalEntryMonoAnalyticPlan_, 'The entries, by date and number'),
    ...errors,
  },
});

export const getJournalEntriesMultiPlan = createRoute({
  method: 'get',
  path: `${base}/journal/entries/multi-analytic-plans`,
  operationId: 'accounting_get_journal_entries_multi_plan',
  tags,
  summary: 'List journal entries, with analytic distributions',
  ...secured('consumer', scopesFor('accounting', 'journal_entries', 'read')),
  request: { params: ConsumerIdParam, query: EntriesQuery },
  responses: {
    200: jsonContent(ServicePage_JournalEntryMultiAnalyticPlan_, 'The entries, by date and number'),
    ...errors,
  },
});

export const getJournalEntry = createRoute({
  method: 'get',
  path: `${base}/journal/entries/{journal_entry_id}`,
  operationId: 'accounting_get_journal_entry',
  tags,
  summary: 'Get one journal entry',
  ...secured('consumer', scopesFor('accounting', 'journal_entries', 'read')),
  request: { params: EntryIdParam, query: FolderQuery },
  responses: { 200: jsonContent(JournalEntryMultiAnalyticPlan, 'The entry'), ...errors },
});

export const createGenericJournalEntry = createRoute({
  method: 'post',
  path: `${base}/journal-entries`,
  operationId: 'accounting_create_generic_journal_entry',
  tags,
  summary: 'Book a journal entry given line by line',
  ...secured('consumer', scopesFor('accounting', 'journal_entries', 'write')),
  request: {
    params: ConsumerIdParam,
    query: EntryCreateQuery,
    body: jsonBody(GenericJournalEntry, 'The entry'),
  },
  responses: { 200: jsonContent(JournalEntryMultiAnalyticPlan, 'The booked entry'), ...entryWriteErrors },
});

/** The deprecated shape of "create journal entry" (not in the current reference; no MCP scopes). */
export const createJournalEntry = createRoute({
  method: 'post',
  path: `${base}/journal/entries`,
  operationId: 'accounting_create_journal_entry',
  tags,
  summary: 'Book a journal entry given line by line (deprecated shape)',
  deprecated: true,
  ...secured('consumer', null, 'accounting'),
  request: { params: ConsumerIdParam, query: FolderQuery, body: jsonBody(JournalEntryIn, 'The entry') },
  responses: { 200: jsonContent(JournalEntryMultiAnalyticPlan, 'The booked entry'), ...entryWriteErrors },
});

export const getOutstandings = createRoute({
  method: 'get',
  path: `${base}/outstandings`,
  operationId: 'accounting_get_outstandings',
  tags: ['Accounting'],
  summary: 'List the open items of clients or suppliers',
  ...secured('consumer', scopesFor('accounting', 'outstandings', 'read')),
  request: { params: ConsumerIdParam, query: OutstandingsQuery },
  responses: { 200: jsonContent(ServicePage_OutstandingItem_, 'The open items, oldest first'), ...errors },
});

export const matchEntries = createRoute({
  method: 'post',
  path: `${base}/matching`,
  operationId: 'accounting_match_entries',
  tags,
  summary: 'Match open items of a client or supplier against each other',
  ...secured('consumer', scopesFor('accounting', 'journal_entries', 'write')),
  request: { params: ConsumerIdParam, query: FolderQuery, body: jsonBody(MatchingIn, 'The items to match') },
  responses: { 200: jsonContent(MatchingOut, 'The matching'), ...errors },
});

export const matchEntriesMultiple = createRoute({
  method: 'post',
  path: `${base}/matching-multiple`,
  operationId: 'accounting_match_entries_multiple',
  tags,
  summary: 'Make several matchings, each on its own',
  deprecated: true,
  ...secured('consumer', scopesFor('accounting', 'journal_entries', 'write')),
  request: {
    params: ConsumerIdParam,
    query: FolderQuery,
    body: jsonBody(MultipleMatchingIn, 'The matchings'),
  },
  responses: {
    200: jsonContent(z.array(MultipleMatchingOut), 'One result per matching, in order'),
    ...errors,
  },
});
