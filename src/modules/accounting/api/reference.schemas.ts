import { z } from '@hono/zod-openapi';
import { pageQuery, servicePage } from '../../../lib/pagination.js';
import { itemOrNull } from '../../../platform/openapi.js';
import { VatCodeScope, VatCodeType } from '../../../platform/wire.js';
import { AccountItemType, JournalType } from '../model/accounting.values.js';
import { folderIdParam } from './accounting.schemas.js';

// Shapes other verticals share too (platform/wire.ts), re-exported for this module's files.
export { VatCodeScope, VatCodeType };

/**
 * Reference data of a folder: folders, book years, analytic plans, schemes, the chart of accounts
 * and its balances, journals, VAT codes, payment methods and payment terms.
 */

export const FolderAddressItem = z
  .object({
    street: z.string().nullable().optional(),
    number: z.string().nullable().optional(),
    box: z.string().nullable().optional(),
    postal_code: z.string().nullable().optional(),
    city: z.string().nullable().optional(),
    country: z.string().nullable().optional(),
  })
  .openapi('FolderAddressItem');

export const FolderItem = z
  .object({
    id: z.string().openapi({ description: 'Id of the folder, the folder_id of the other operations' }),
    name: z.string(),
    selected: z.boolean().nullable().optional(),
    active: z.boolean().nullable().optional(),
    vat: z.string().nullable().optional(),
    company_number: z.string().nullable().optional(),
    main_currency: z.string().nullable().optional(),
    addresses: z.array(FolderAddressItem).nullable().optional(),
  })
  .openapi('FolderItem', { description: 'A company kept in the accounting software' });

export const BookYear = z
  .object({
    name: z.string(),
    start: z.iso.date(),
    end: z.iso.date(),
    closed: z.boolean().openapi({ description: 'A closed year takes no more entries' }),
  })
  .openapi('BookYear', { description: 'A financial year of the folder' });

export const AnalyticPlanItem = z
  .object({
    id: z.string(),
    name: z.string(),
    active: z.boolean().nullable().optional(),
    parent_id: z.string().nullable().optional(),
  })
  .openapi('AnalyticPlanItem', { description: 'An axis of analytic accounting (departments, projects...)' });

export const SchemeItem = z
  .object({ id: z.string(), code: z.string(), name: z.string() })
  .openapi('SchemeItem', { description: 'A reporting classification that accounts can be linked to' });

export const AccountTypeFilter = z
  .enum(['bank', 'cash', 'income', 'expense', 'other_expense', 'vat'])
  .openapi('AccountTypeFilter');

export const AccountItem = z
  .object({
    number: z.string(),
    name: z.string(),
    active: z.boolean().nullable().optional(),
    type: itemOrNull(AccountItemType).optional(),
    scheme_ids: z.array(z.string()).nullable().optional(),
    accounting_category: z.string().nullable().optional(),
  })
  .openapi('AccountItem', { description: 'An account of the chart of accounts' });

export const LedgerAccountItemIn = z
  .object({
    name: z.string().min(1),
    number: z.string().min(3).openapi({
      description: 'Digits only, unique in the folder; its structure follows the official chart',
    }),
    type: itemOrNull(AccountItemType).default('other'),
  })
  .openapi('LedgerAccountItemIn', { description: 'A new account of the chart of accounts' });

export const AccountBalanceFilter = z
  .object({
    accounts: z
      .array(z.string())
      .openapi({ description: 'Account numbers or prefixes (a class, "60"...); empty: every account' }),
    start: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'First month of the period, YYYYMM (a day YYYY-MM-DD stands for its month)' }),
    end: z
      .string()
      .min(6)
      .openapi({ description: 'Last month, YYYYMM (a day YYYY-MM-DD stands for its month)' }),
  })
  .openapi('AccountBalanceFilter');

export const AccountBalance = z
  .object({
    account_number: z.string(),
    account_name: z.string().nullable().optional(),
    debit: z.number(),
    credit: z.number(),
    balance: z.number(),
    period_debit: z.number(),
    period_credit: z.number(),
    period_balance: z.number(),
  })
  .openapi('AccountBalance', {
    description: 'Totals of posted entries up to the end month, and over the period from the start month',
  });

export const NextDocumentNumber = z
  .object({
    bookyear_name: z.string().nullable().optional(),
    next_document_number: z.string().nullable().optional(),
    start_date: z.iso.date().nullable().optional(),
    end_date: z.iso.date().nullable().optional(),
  })
  .openapi('NextDocumentNumber');

export const Journal = z
  .object({
    id: z.string(),
    code: z.string().nullable().optional(),
    name: z.string(),
    journal_type: JournalType,
    counterpart_account: z.string().nullable().optional(),
    unallocated_account: z.string().nullable().optional(),
    next_document_numbers: z.array(NextDocumentNumber).nullable().optional(),
    iban: z.string().nullable().optional(),
    currency: z.string().nullable().optional(),
    other_currencies_allowed: z.boolean().nullable().optional(),
    blocked: z.boolean().nullable().optional(),
  })
  .openapi('Journal', { description: 'A journal: where entries of one kind are booked' });

export const JournalInType = z
  .enum([
    'customer_invoice',
    'customer_refund',
    'supplier_invoice',
    'supplier_refund',
    'bank',
    'cash',
    'miscellaneous_operation',
  ])
  .openapi('JournalInType');

export const JournalIn = z
  .object({
    code: z.string().min(2),
    name: z.string().min(1),
    journal_type: JournalInType,
    counterpart_account: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'The bank or cash account of a bank or cash journal (required for those)' }),
  })
  .openapi('JournalIn', { description: 'A new journal' });

export const AccountingVatCode = z
  .object({
    id: z.string().openapi({ description: 'The id invoice lines give as tax_code' }),
    code: z.string().nullable().optional(),
    active: z.boolean().nullable().optional(),
    label: z.string(),
    scope: itemOrNull(VatCodeScope).optional(),
    rate: z.number(),
    type: VatCodeType,
    deductible_account: z.string().nullable().optional(),
    payable_account: z.string().nullable().optional(),
    reversed: z.boolean().nullable().optional(),
    withholding_tax: z.boolean().nullable().optional(),
    country: z.string().nullable().optional(),
  })
  .openapi('AccountingVatCode', { description: 'A VAT code with its rate and accounts' });

const namedReference = z.object({ id: z.string(), name: z.string().nullable().optional() });

export const AccountingPaymentMethod = namedReference.openapi('AccountingPaymentMethod', {
  description: 'A way to pay; invoice payments name one',
});

export const AccountingPaymentTerms = namedReference.openapi('AccountingPaymentTerms', {
  description: 'A payment term (due-date rule) of invoices',
});

export const ServicePage_BookYear_ = servicePage(BookYear, 'BookYear');
export const ServicePage_AnalyticPlanItem_ = servicePage(AnalyticPlanItem, 'AnalyticPlanItem');
export const ServicePage_SchemeItem_ = servicePage(SchemeItem, 'SchemeItem');
export const ServicePage_AccountItem_ = servicePage(AccountItem, 'AccountItem');
export const ServicePage_AccountBalance_ = servicePage(AccountBalance, 'AccountBalance');
export const ServicePage_Journal_ = servicePage(Journal, 'Journal');
export const ServicePage_AccountingVatCode_ = servicePage(AccountingVatCode, 'AccountingVatCode');
export const ServicePage_AccountingPaymentMethod_ = servicePage(
  AccountingPaymentMethod,
  'AccountingPaymentMethod',
);
export const ServicePage_AccountingPaymentTerms_ = servicePage(
  AccountingPaymentTerms,
  'AccountingPaymentTerms',
);

export const FolderIdParam = z.object({
  consumer_id: z
    .uuid()
    .openapi({ param: { name: 'consumer_id', in: 'path' }, description: 'Id of the consumer' }),
  folder_id: z
    .string()
    .openapi({ param: { name: 'folder_id', in: 'path' }, description: 'Id of the folder' }),
});

export const ReferencePageQuery = pageQuery({ folder_id: folderIdParam });

export const ChartQuery = pageQuery({
  folder_id: folderIdParam,
  classes: z
    .string()
    .optional()
    .openapi({
      param: { name: 'classes', in: 'query' },
      description: 'Comma-separated classes or number prefixes, e.g. 6,7',
    }),
  type: AccountTypeFilter.optional().openapi({ param: { name: 'type', in: 'query' } }),
});

export type AccountItemOut = z.infer<typeof AccountItem>;
export type JournalOut = z.infer<typeof Journal>;
export type JournalInInput = z.infer<typeof JournalIn>;
export type LedgerAccountInput = z.infer<typeof LedgerAccountItemIn>;
export type AccountBalanceFilterInput = z.infer<typeof AccountBalanceFilter>;
