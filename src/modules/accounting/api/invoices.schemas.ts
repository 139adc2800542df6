import { z } from '@hono/zod-openapi';
import { pageQuery, servicePage } from '../../../lib/pagination.js';
import { itemOrNull } from '../../../platform/openapi.js';
import { PaymentStatus } from '../../../platform/wire.js';
import { InvoiceApprovalStatus, InvoiceType, JournalType } from '../model/accounting.values.js';
import {
  AccountToCreate,
  AnalyticDistribution,
  BoolParam,
  ConsumerIdParam,
  folderIdParam,
  ItemAttachmentInfoOut,
} from './accounting.schemas.js';
import { Partner } from './partners.schemas.js';

// Shapes other verticals share too (platform/wire.ts), re-exported for this module's files.
export { PaymentStatus };

/**
 * Invoices (sale and purchase entries) and their payments. Each shape comes in a mono analytic plan
 * variant (one analytic account per line) and a multi-plan variant (an analytic distribution per
 * line); both derive from one set of fields.
 */

export const InvoiceStatusIn = z
  .enum(['draft', 'posted'])
  .openapi('InvoiceStatusIn', { description: 'A draft books an unposted entry' });

export const InvoiceStatusOut = z
  .enum(['cancelled', 'draft', 'posted', 'paid'])
  .openapi('InvoiceStatusOut', { description: 'paid: posted with nothing left to pay' });

export const InvoiceApprovalStatusFilter = z
  .enum(['pending', 'approved', 'rejected'])
  .openapi('InvoiceApprovalStatusFilter');

export const WithholdingTax = z
  .object({ tax_rate: z.number(), tax_code: z.string(), tax_amount: z.number() })
  .openapi('WithholdingTax');

export const InvoiceCorrection = z
  .object({
    sale_invoice_correction_tax_code: z.string().nullable().optional(),
    purchase_invoice_correction_tax_code: z.string().nullable().optional(),
    invoice_correction_credit_account_number: z.string().nullable().optional(),
    invoice_correction_debit_account_number: z.string().nullable().optional(),
  })
  .openapi('InvoiceCorrection');

export const PaymentTermAccountInfo = z
  .object({ amount: z.number(), iban: z.string() })
  .openapi('PaymentTermAccountInfo');

export const NlPaymentTermsSplit = z
  .object({ g_account: PaymentTermAccountInfo, n_account: PaymentTermAccountInfo })
  .openapi('NlPaymentTermsSplit');

const lineAmounts = {
  unit_price: z.number(),
  unit_of_measure: z.string().nullable().optional(),
  quantity: z.number(),
  untaxed_amount: z.number().openapi({ description: 'quantity x unit_price, to the cent' }),
  tax_rate: z.number().openapi({ description: 'The rate of the VAT code' }),
  tax_amount: z
    .number()
    .openapi({ description: 'tax_rate % of untaxed_amount (0 for a reverse-charge code)' }),
  total: z.number().openapi({ description: 'untaxed_amount + tax_amount' }),
};

const lineIn = z.object({
  line_number: z.number().int().nullable().default(1),
  ...lineAmounts,
  account_number: z.string().min(1).openapi({ description: 'Revenue or expense account' }),
  tax_code: z.string().min(1).openapi({ description: 'Id of a VAT code' }),
  description: z.string().default(''),
});

export const InvoiceLineItemInMonoAnalyticPlan = lineIn
  .extend({
    analytic_account: z.string().nullable().optional().openapi({ description: 'Id of an analytic account' }),
  })
  .openapi('InvoiceLineItemInMonoAnalyticPlan');

export const InvoiceLineItemInMultiAnalyticPlans = lineIn
  .extend({ analytic_distribution: z.array(AnalyticDistribution).nullable().default([]) })
  .openapi('InvoiceLineItemInMultiAnalyticPlans');

const lineOut = z.object({
  line_number: z.number().int().nullable().optional(),
  ...lineAmounts,
  account_number: z.string().nullable().optional(),
  tax_code: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
});

export const InvoiceLineItemOutMonoAnalyticPlan = lineOut
  .extend({ analytic_account: z.string().nullable().optional() })
  .openapi('InvoiceLineItemOutMonoAnalyticPlan');

export const InvoiceLineItemOutMultiAnalyticPlans = lineOut
  .extend({ analytic_distribution: z.array(AnalyticDistribution).nullable().optional() })
  .openapi('InvoiceLineItemOutMultiAnalyticPlans');

export const InvoiceItemDueDatesOut = z
  .object({
    due_date: z.iso.date(),
    payment_method: z.string().nullable().optional(),
    payment_method_id: z.string().nullable().optional(),
    amount: z.number(),
  })
  .openapi('InvoiceItemDueDatesOut');

export const AccountingInfoOut = z
  .object({
    main_currency: z.string().optional(),
    main_currency_total: z.number().optional(),
    account_number: z.string().nullable().optional(),
  })
  .openapi('AccountingInfoOut', {
    description: "The invoice in the folder's currency, and its partner account",
  });

export const Payment = z
  .object({
    id: z.string().openapi({ description: 'Id of the entry that paid' }),
    name: z.string(),
    currency: z.string(),
    amount: z.number().openapi({ description: 'Amount of the paying line' }),
    dedicated_amount: z
      .number()
      .optional()
      .openapi({ description: 'The part of it that went to this invoice' }),
    payment_date: z.iso.date(),
    journal_type: JournalType,
    journal_id: z.string(),
    journal_name: z.string(),
    reconciled: z.boolean().nullable().optional(),
    communication: z.string().nullable().optional(),
    matching_number: z.string().nullable().optional(),
  })
  .openapi('Payment', { description: 'An entry that settled (part of) an invoice' });

const invoiceHead = {
  invoice_type: InvoiceType,
  invoice_number: z.string().nullable().optional(),
  currency: z.string(),
  untaxed_amount: z.number(),
  tax_amount: z.number(),
  total: z.number(),
  reference: z.string().nullable().optional(),
  payment_communication: z.string().nullable().optional(),
  customer_memo: z.string().nullable().optional(),
  payment_term_id: z.string().nullable().optional(),
  withholding_tax: itemOrNull(WithholdingTax).optional(),
  invoice_date: z.iso.date(),
  due_date: z.iso.date(),
  journal_id: z.string().nullable().optional(),
  payment_method_id: z.string().nullable().optional(),
};

const invoiceIn = z.object({
  ...invoiceHead,
  invoice_number: z
    .string()
    .nullable()
    .optional()
    .openapi({ description: 'Unique in its journal; given by the journal when left out' }),
  partner_id: z
    .string()
    .min(1)
    .nullable()
    .optional()
    .openapi({ description: 'Id of the client or supplier' }),
  journal_id: z
    .string()
    .nullable()
    .optional()
    .openapi({ description: 'Left out: the journal of the invoice type, when there is one' }),
  status: itemOrNull(InvoiceStatusIn).default('posted'),
  pdf: z.string().nullable().optional().openapi({ description: 'A PDF, base64-encoded' }),
  pdf_name: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[a-zA-Z0-9\-_ ]{1,196}(?:.pdf)?$/)
    .nullable()
    .optional(),
  currency_exchange_rate: z.number().nullable().default(1),
  invoice_correction: itemOrNull(InvoiceCorrection).optional(),
  nl_payment_terms_split: itemOrNull(NlPaymentTermsSplit).optional(),
  shipping_country: z.string().nullable().optional(),
  partner_info: itemOrNull(AccountToCreate).optional(),
  start_date: z.iso.date().nullable().optional(),
  end_date: z.iso.date().nullable().optional(),
});

export const InvoiceItemInMonoAnalyticPlan = invoiceIn
  .extend({ lines: z.array(InvoiceLineItemInMonoAnalyticPlan) })
  .openapi('InvoiceItemInMonoAnalyticPlan', { description: 'A new invoice, one analytic account per line' });

export const InvoiceItemInMultiAnalyticPlans = invoiceIn
  .extend({ lines: z.array(InvoiceLineItemInMultiAnalyticPlans) })
  .openapi('InvoiceItemInMultiAnalyticPlans', {
    description: 'A new invoice, an analytic distribution per line',
  });

const invoiceOut = z.object({
  ...invoiceHead,
  id: z.string().nullable().optional(),
  partner_id: z.string().nullable(),
  payments: z.array(Payment).nullable().optional().openapi({ description: 'With include_payments=true' }),
  status: itemOrNull(InvoiceStatusOut).optional(),
  last_updated_on: z.string().nullable().optional().openapi({ format: 'date-time' }),
  partner: itemOrNull(Partner).optional().openapi({ description: 'With include_partner_info=true' }),
  due_dates: z.array(InvoiceItemDueDatesOut).nullable().optional(),
  attachments_info: ItemAttachmentInfoOut.optional(),
  accounting_info: itemOrNull(AccountingInfoOut).optional(),
  approval_status: InvoiceApprovalStatus.optional(),
});

export const InvoiceItemOutMonoAnalyticPlan = invoiceOut
  .extend({ lines: z.array(InvoiceLineItemOutMonoAnalyticPlan) })
  .openapi('InvoiceItemOutMonoAnalyticPlan', { description: 'An invoice, one analytic account per line' });

export const InvoiceItemOutMultiAnalyticPlans = invoiceOut
  .extend({ lines: z.array(InvoiceLineItemOutMultiAnalyticPlans) })
  .openapi('InvoiceItemOutMultiAnalyticPlans', {
    description: 'An invoice, an analytic distribution per line',
  });

export const AccountingInvoicePaymentItemIn = z
  .object({
    invoice_id: z.string(),
    amount: z
      .number()
      .gt(0)
      .openapi({ description: 'Part of the payment for this invoice, at most its open amount' }),
  })
  .openapi('AccountingInvoicePaymentItemIn');

export const AccountingInvoicePaymentIn = z
  .object({
    date: z.iso.date(),
    payment_method_id: z.string().openapi({ description: 'Its journal books the payment' }),
    currency: z.string(),
    currency_exchange_rate: z.number().nullable().default(1),
    reference: z.string().nullable().optional(),
    number: z.string().nullable().optional(),
    items: z.array(AccountingInvoicePaymentItemIn),
  })
  .openapi('AccountingInvoicePaymentIn', { description: 'A payment of one or more invoices' });

export const ServicePage_InvoiceItemOutMonoAnalyticPlan_ = servicePage(
  InvoiceItemOutMonoAnalyticPlan,
  'InvoiceItemOutMonoAnalyticPlan',
);
export const ServicePage_InvoiceItemOutMultiAnalyticPlans_ = servicePage(
  InvoiceItemOutMultiAnalyticPlans,
  'InvoiceItemOutMultiAnalyticPlans',
);
export const ServicePage_Payment_ = servicePage(Payment, 'Payment');

const boolQuery = (name: string, description: string) =>
  BoolParam.optional().openapi({
    param: { name, in: 'query' },
    description: `${description} (default false)`,
  });

const includeParams = {
  include_payments: boolQuery('include_payments', 'Fill payments'),
  include_invoice_lines: boolQuery('include_invoice_lines', 'Fill lines'),
  include_partner_info: boolQuery('include_partner_info', 'Fill partner'),
};

export const InvoicesQuery = pageQuery({
  folder_id: folderIdParam,
  date_from: z.iso
    .date()
    .optional()
    .openapi({ param: { name: 'date_from', in: 'query' } }),
  date_to: z.iso
    .date()
    .optional()
    .openapi({ param: { name: 'date_to', in: 'query' } }),
  journal_ids: z
    .string()
    .optional()
    .openapi({ param: { name: 'journal_ids', in: 'query' }, description: 'Comma-separated journal ids' }),
  payment_status: PaymentStatus.optional().openapi({ param: { name: 'payment_status', in: 'query' } }),
  updated_after: z.iso
    .datetime({ offset: true, local: true })
    .optional()
    .openapi({ param: { name: 'updated_after', in: 'query' } }),
  approval_status: InvoiceApprovalStatusFilter.optional().openapi({
    param: { name: 'approval_status', in: 'query' },
  }),
  ...includeParams,
});

export const InvoiceTypeParam = ConsumerIdParam.extend({
  invoice_type: InvoiceType.openapi({ param: { name: 'invoice_type', in: 'path' } }),
});

export const InvoiceIdParam = ConsumerIdParam.extend({
  invoice_id: z
    .string()
    .openapi({ param: { name: 'invoice_id', in: 'path' }, description: 'Id of the invoice' }),
});

export const InvoiceQuery = z.object({ folder_id: folderIdParam, ...includeParams });

export const InvoiceCreateQuery = z.object({
  folder_id: folderIdParam,
  force_financial_period: z
    .string()
    .optional()
    .openapi({ param: { name: 'force_financial_period', in: 'query' }, description: 'MMYYYY' }),
  regroup_lines: BoolParam.optional().openapi({
    param: { name: 'regroup_lines', in: 'query' },
    description: 'One entry line per account and VAT code (true, the default) or per invoice line',
  }),
  ignore_accounting_id: z
    .enum(['true', 'false'])
    .optional()
    .openapi({ param: { name: 'ignore_accounting_id', in: 'query' }, type: 'boolean' }),
  force_currency_exchange: z
    .enum(['true', 'false'])
    .optional()
    .openapi({ param: { name: 'force_currency_exchange', in: 'query' }, type: 'boolean' }),
});

export const PaymentsPageQuery = pageQuery({ folder_id: folderIdParam });

export type InvoiceMonoInput = z.infer<typeof InvoiceItemInMonoAnalyticPlan>;
export type InvoiceMultiInput = z.infer<typeof InvoiceItemInMultiAnalyticPlans>;
export type InvoiceMonoOut = z.infer<typeof InvoiceItemOutMonoAnalyticPlan>;
export type InvoiceMultiOut = z.infer<typeof InvoiceItemOutMultiAnalyticPlans>;
export type PaymentOut = z.infer<typeof Payment>;
export type InvoicePaymentInput = z.infer<typeof AccountingInvoicePaymentIn>;
