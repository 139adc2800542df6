import { z } from '@hono/zod-openapi';
import { pageQuery, servicePage } from '../../../lib/pagination.js';
import { itemOrNull } from '../../../platform/openapi.js';
import { JournalType } from '../model/accounting.values.js';
import {
  AccountToCreate,
  AnalyticDistribution,
  BoolParam,
  ConsumerIdParam,
  folderIdParam,
  ItemAttachmentInfoOut,
} from './accounting.schemas.js';

/** Journal entries (the ledger itself), outstanding items and matching. */

export const EntryLineType = z
  .enum(['customer_account', 'supplier_account', 'employee_account', 'general_account'])
  .openapi('EntryLineType', { description: 'What the account of an entry item names' });

export const TaxInfo = z
  .object({
    tax_code: z.string(),
    tax_amount: z.number(),
    vat_account: z.string().nullable().optional(),
    reversed_vat_account: z.string().nullable().optional(),
    description: z.string().nullable().optional(),
  })
  .openapi('TaxInfo');

export const GenericJournalItem = z
  .object({
    account_type: EntryLineType,
    account: z
      .string()
      .min(1)
      .nullable()
      .optional()
      .openapi({ description: 'A client, supplier or employee id, or a general account number' }),
    force_general_account: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'Book a partner or employee line on this account instead of its own' }),
    prioritise_thirdparty_account: z.boolean().nullable().default(false),
    description: z.string().nullable().optional(),
    debit: z.number(),
    credit: z.number(),
    analytic_distribution: z.array(AnalyticDistribution).nullable().default([]),
    tax_code: z.string().nullable().optional(),
    tax_info: itemOrNull(TaxInfo).optional(),
    account_info: itemOrNull(AccountToCreate).optional(),
  })
  .openapi('GenericJournalItem', { description: 'One line of a journal entry: a debit or a credit' });

export const GenericJournalEntry = z
  .object({
    reference: z.string().nullable().optional(),
    due_date: z.iso.date().nullable().optional(),
    journal_id: z.string(),
    number: z.string().min(1).openapi({ description: 'Unique in the journal' }),
    currency: z.string().min(1),
    currency_exchange_rate: z.number().nullable().default(1),
    date: z.iso.date(),
    items: z.array(GenericJournalItem).min(2),
    pdf: z.string().nullable().optional(),
    pdf_name: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[a-zA-Z0-9\-_ ]{1,196}(?:.pdf)?$/)
      .nullable()
      .optional(),
    posted: z.boolean().nullable().default(true),
    start_date: z.iso.date().nullable().optional(),
    end_date: z.iso.date().nullable().optional(),
  })
  .openapi('GenericJournalEntry', { description: 'A balanced journal entry, given line by line' });

export const JournalItemIn = z
  .object({
    account_number: z.string().min(1),
    partner_id: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'The client or supplier of a line on a receivable or payable account' }),
    description: z.string().nullable().optional(),
    debit: z.number(),
    credit: z.number(),
    currency: z.string().min(1).openapi({ description: 'The same on every line' }),
    currency_exchange_rate: z.number().nullable().default(1),
    analytic_distribution: z.array(AnalyticDistribution).nullable().default([]),
  })
  .openapi('JournalItemIn', { description: 'One line of a journal entry (deprecated shape)' });

export const JournalEntryIn = z
  .object({
    reference: z.string().nullable().optional(),
    due_date: z.iso.date().nullable().optional(),
    journal_id: z.string(),
    name: z.string().openapi({ description: 'Number of the entry, unique in the journal' }),
    date: z.iso.date(),
    items: z.array(JournalItemIn),
    pdf: z.string().nullable().optional(),
  })
  .openapi('JournalEntryIn', { description: 'A balanced journal entry (deprecated shape)' });

export const JournalItemDueDatesOut = z
  .object({
    due_date: z.iso.date(),
    payment_method: z.string().nullable().optional(),
    payment_method_id: z.string().nullable().optional(),
    debit: z.number().nullable().optional(),
    credit: z.number().nullable().optional(),
  })
  .openapi('JournalItemDueDatesOut');

const journalItem = z.object({
  account_number: z.string().min(1),
  partner_id: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  debit: z.number(),
  credit: z.number(),
  currency: z.string().min(1),
  currency_exchange_rate: z.number().nullable().optional(),
  id: z.string().openapi({ description: 'Id of the line (the id of an outstanding item)' }),
  partner_name: z.string().nullable().optional(),
  account_name: z.string(),
  matching_numbers: z.array(z.string()).nullable().optional(),
});

export const JournalItemMonoAnalyticPlan = journalItem
  .extend({
    analytic_account: z.string().nullable().optional(),
    analytic_account_name: z.string().nullable().optional(),
  })
  .openapi('JournalItemMonoAnalyticPlan');

export const JournalItemMultiAnalyticPlan = journalItem
  .extend({ analytic_distribution: z.array(AnalyticDistribution).nullable().optional() })
  .openapi('JournalItemMultiAnalyticPlan');

const journalEntry = z.object({
  reference: z.string().nullable().optional(),
  due_date: z.iso.date().nullable().optional(),
  journal_id: z.string(),
  name: z.string().nullable().optional().openapi({ description: 'Number of the entry in its journal' }),
  journal_name: z.string().nullable().optional(),
  date: z.iso.date().nullable().optional(),
  posted: z.boolean().nullable().optional(),
  id: z.string(),
  due_dates: z.array(JournalItemDueDatesOut).nullable().optional(),
  attachments_info: ItemAttachmentInfoOut.optional(),
});

export const JournalEntryMonoAnalyticPlan = journalEntry
  .extend({ items: z.array(JournalItemMonoAnalyticPlan).nullable().optional() })
  .openapi('JournalEntryMonoAnalyticPlan', { description: 'A journal entry, one analytic account per line' });

export const JournalEntryMultiAnalyticPlan = journalEntry
  .extend({ items: z.array(JournalItemMultiAnalyticPlan).nullable().optional() })
  .openapi('JournalEntryMultiAnalyticPlan', {
    description: 'A journal entry, an analytic distribution per line',
  });

export const OutstandingType = z.enum(['client', 'supplier']).openapi('OutstandingType');

export const OutstandingItemDueDatesOut = z
  .object({
    due_date: z.iso.date(),
    payment_method: z.string().nullable().optional(),
    payment_method_id: z.string().nullable().optional(),
    amount: z.number(),
  })
  .openapi('OutstandingItemDueDatesOut');

export const OriginalOutstandingItem = z
  .object({
    id: z.string().nullable().optional(),
    number: z.string().nullable().optional(),
    journal_id: z.string().nullable().optional(),
    journal_type: itemOrNull(JournalType).optional(),
    date: z.iso.date().nullable().optional(),
    due_date: z.iso.date().nullable().optional(),
    reference: z.string().nullable().optional(),
  })
  .openapi('OriginalOutstandingItem', { description: 'The invoice or entry an outstanding item comes from' });

export const OutstandingItem = z
  .object({
    id: z.string().openapi({ description: 'Id of the open line; matching takes it' }),
    number: z.string().nullable().optional(),
    journal_id: z.string(),
    journal_type: JournalType,
    date: z.iso.date(),
    due_date: z.iso.date().nullable().optional(),
    due_dates: z.array(OutstandingItemDueDatesOut).nullable().optional(),
    currency: z.string(),
    currency_exchange_rate: z.number(),
    amount: z.number().openapi({
      description: 'Amount of the line: positive for an invoice, negative for a payment or refund',
    }),
    open_amount: z.number().openapi({ description: 'What is not matched yet, with the same sign' }),
    partner_id: z.string(),
    account_number: z.string(),
    reference: z.string().nullable().optional(),
    matching_numbers: z.array(z.string()).nullable().optional(),
    payment_communication: z.string().nullable().optional(),
    posted: z.boolean(),
    original_document: itemOrNull(OriginalOutstandingItem).optional(),
  })
  .openapi('OutstandingItem', { description: 'An open line of a receivable or payable account' });

export const MatchingIn = z
  .object({
    entries: z.array(z.string()).min(2).openapi({
      description: 'Outstanding item (line) ids, or entry or invoice ids standing for their open lines',
    }),
    partner_id: z.string(),
  })
  .openapi('MatchingIn', { description: 'Open lines of one partner to settle against each other' });

export const MatchingOut = z
  .object({
    matching_number: z.string(),
    balance: z.number().openapi({ description: 'What stays open: 0 when debit and credit agree' }),
  })
  .openapi('MatchingOut');

export const MultipleMatchingIn = z.object({ matchings: z.array(MatchingIn) }).openapi('MultipleMatchingIn');

export const MultipleMatchingOut = z
  .object({
    matching_number: z.string().nullable().optional(),
    processed: z.boolean(),
    error_msg: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .openapi({ description: 'The error body of a matching that was refused' }),
  })
  .openapi('MultipleMatchingOut');

export const ServicePage_JournalEntryMonoAnalyticPlan_ = servicePage(
  JournalEntryMonoAnalyticPlan,
  'JournalEntryMonoAnalyticPlan',
);
export const ServicePage_JournalEntryMultiAnalyticPlan_ = servicePage(
  JournalEntryMultiAnalyticPlan,
  'JournalEntryMultiAnalyticPlan',
);
export const ServicePage_OutstandingItem_ = servicePage(OutstandingItem, 'OutstandingItem');

const unpostedAllowed = BoolParam.openapi({
  param: { name: 'unposted_allowed', in: 'query', required: true },
  description: 'Include unposted (draft) entries',
});

export const EntriesQuery = pageQuery({
  folder_id: folderIdParam,
  unposted_allowed: unpostedAllowed,
  journal_id: z
    .string()
    .optional()
    .openapi({ param: { name: 'journal_id', in: 'query' } }),
  date_from: z.iso
    .date()
    .optional()
    .openapi({ param: { name: 'date_from', in: 'query' } }),
  date_to: z.iso
    .date()
    .optional()
    .openapi({ param: { name: 'date_to', in: 'query' } }),
  updated_after: z.iso
    .datetime({ offset: true, local: true })
    .optional()
    .openapi({ param: { name: 'updated_after', in: 'query' } }),
  partner_id: z
    .string()
    .optional()
    .openapi({ param: { name: 'partner_id', in: 'query' } }),
});

export const EntryIdParam = ConsumerIdParam.extend({
  journal_entry_id: z
    .string()
    .openapi({ param: { name: 'journal_entry_id', in: 'path' }, description: 'Id of the journal entry' }),
});

export const EntryCreateQuery = z.object({
  folder_id: folderIdParam,
  force_currency_exchange: BoolParam.optional().openapi({
    param: { name: 'force_currency_exchange', in: 'query' },
  }),
  ignore_accounting_id: z
    .enum(['true', 'false'])
    .optional()
    .openapi({ param: { name: 'ignore_accounting_id', in: 'query' }, type: 'boolean' }),
});

export const OutstandingsQuery = pageQuery({
  folder_id: folderIdParam,
  type: OutstandingType.openapi({ param: { name: 'type', in: 'query', required: true } }),
  unposted_allowed: unpostedAllowed,
});

export type GenericJournalEntryInput = z.infer<typeof GenericJournalEntry>;
export type JournalEntryInInput = z.infer<typeof JournalEntryIn>;
export type JournalEntryMonoOut = z.infer<typeof JournalEntryMonoAnalyticPlan>;
export type JournalEntryMultiOut = z.infer<typeof JournalEntryMultiAnalyticPlan>;
export type OutstandingItemOut = z.infer<typeof OutstandingItem>;
export type MatchingInInput = z.infer<typeof MatchingIn>;
