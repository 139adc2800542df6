import { z } from '@hono/zod-openapi';
import { itemOrNull } from '../../../platform/openapi.js';
import { BoolParam, folderIdParam, pdfNameField } from './accounting.schemas.js';
import { EntryLineType, TaxInfo } from './entries.schemas.js';

/**
 * Financial entries: receipts and payments booked in a bank or cash journal, each item against the
 * bank or cash account. The deprecated shape (…Old) names accounts and partners the older way.
 */

const amount = z.number().openapi({
  description: 'Positive: received on the bank or cash account; negative: paid from it',
});

const line = z.object({
  account_type: EntryLineType,
  account: z
    .string()
    .min(1)
    .openapi({ description: 'A general account number, or the id of the client, supplier or employee' }),
  amount,
  description: z.string().nullable().optional(),
  tax_info: itemOrNull(TaxInfo)
    .optional()
    .openapi({ description: 'VAT of a general_account line, added to its amount' }),
  automated_matching_number: z.string().nullable().optional().openapi({
    description: "Number of the partner's open item (an invoice number) this line settles",
  }),
});

export const FinancialEntryLineItem = line.openapi('FinancialEntryLineItem', {
  description: 'One item of a financial entry',
});

const counterpart = z
  .string()
  .openapi({ description: 'The bank or cash account the item was booked against' });

export const FinancialEntryLineItemOut = line
  .extend({ counterpart_account: counterpart })
  .openapi('FinancialEntryLineItemOut', { description: 'One item of a financial entry, as booked' });

const head = z.object({
  date: z.iso.date(),
  journal_id: z.string().openapi({ description: 'A bank or cash journal' }),
  currency: z.string(),
  currency_exchange_rate: z.number().nullable().default(1),
  reference: z.string().nullable().optional(),
});

const number = z
  .string()
  .nullable()
  .optional()
  .openapi({ description: 'Unique in the journal; left out, the next number of the journal' });

export const FinancialEntryItemIn = head
  .extend({
    number,
    items: z.array(FinancialEntryLineItem).min(1),
    pdf: z.string().nullable().optional().openapi({ description: 'A PDF, base64-encoded' }),
    pdf_name: pdfNameField(),
  })
  .openapi('FinancialEntryItemIn', { description: 'A receipt or payment to book' });

export const FinancialEntryItemOut = head
  .extend({
    id: z.string().openapi({ description: 'Id of the journal entry' }),
    number: z.string(),
    items: z.array(FinancialEntryLineItemOut),
  })
  .openapi('FinancialEntryItemOut', { description: 'A financial entry as booked' });

const oldLine = z.object({
  type: EntryLineType,
  account_number: z.string().openapi({
    description: 'The general account; for a third-party line, its receivable, payable or employee account',
  }),
  partner_id: z
    .string()
    .nullable()
    .optional()
    .openapi({ description: 'The client, supplier or employee of a third-party line' }),
  amount,
  description: z.string().nullable().optional(),
});

export const FinancialEntryLineItemOld = oldLine.openapi('FinancialEntryLineItemOld', {
  description: 'One item of a financial entry (deprecated shape)',
});

export const FinancialEntryLineItemOutOld = oldLine
  .extend({ counterpart_account: counterpart })
  .openapi('FinancialEntryLineItemOutOld', { description: 'One item of a financial entry, as booked' });

export const FinancialEntryItemInOld = head
  .extend({
    number,
    items: z.array(FinancialEntryLineItemOld),
    pdf: z.string().nullable().optional().openapi({ description: 'A PDF, base64-encoded' }),
  })
  .openapi('FinancialEntryItemInOld', { description: 'A receipt or payment to book (deprecated shape)' });

export const FinancialEntryItemOutOld = head
  .extend({
    id: z.string().openapi({ description: 'Id of the journal entry' }),
    number: z.string(),
    items: z.array(FinancialEntryLineItemOutOld),
  })
  .openapi('FinancialEntryItemOutOld', { description: 'A financial entry as booked (deprecated shape)' });

const counterpartParam = z
  .string()
  .optional()
  .openapi({
    param: { name: 'financial_counterpart_account', in: 'query' },
    description: 'The bank or cash account, when the journal names none (or to book on another)',
  });

export const FinancialEntryQuery = z.object({
  folder_id: folderIdParam,
  financial_counterpart_account: counterpartParam,
  force_currency_exchange: BoolParam.optional().openapi({
    param: { name: 'force_currency_exchange', in: 'query' },
    description: 'Accepted; the given exchange rate is always used',
  }),
  ignore_accounting_id: z
    .enum(['true', 'false'])
    .optional()
    .openapi({
      param: { name: 'ignore_accounting_id', in: 'query' },
      type: 'boolean',
      description: 'Accepted; the answer always carries the id',
    }),
});

export const FinancialEntryOldQuery = z.object({
  folder_id: folderIdParam,
  financial_counterpart_account: counterpartParam,
});

export type FinancialEntryInput = z.infer<typeof FinancialEntryItemIn>;
export type FinancialEntryOut = z.infer<typeof FinancialEntryItemOut>;
export type FinancialEntryOldInput = z.infer<typeof FinancialEntryItemInOld>;
export type FinancialEntryOldOut = z.infer<typeof FinancialEntryItemOutOld>;
