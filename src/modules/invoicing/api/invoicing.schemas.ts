import { z } from '@hono/zod-openapi';
import { pageQuery, servicePage } from '../../../lib/pagination.js';
import { ConsumerIdParam, itemOrNull } from '../../../platform/openapi.js';
import {
  PaymentPaymentStatus,
  PaymentStatus,
  Ref,
  VatCodeScope,
  VatCodeType,
} from '../../../platform/wire.js';
import { BoolParam } from '../../integrations/index.js';
import {
  AddressTypeInvoicing,
  BankTransactionStatus,
  ContactGender,
  InvoicingCreateInvoiceType,
  InvoicingDocumentType,
  OpportunityStatus,
} from '../model/invoicing.values.js';
import type { InvoicingPaymentItemIn, InvoicingPaymentItemUpdate } from './payments.schemas.js';

// Shapes other verticals share too (platform/wire.ts), re-exported for this module's files.
export { PaymentPaymentStatus, Ref };

/**
 * Wire shapes of the Invoicing vertical, under the reference's names. Output shapes list every field
 * (nullable ones as null); only the reference's required fields are required in the document.
 */

export {
  InvoicingBankAccountItem,
  InvoicingBankTransactionItem,
  InvoicingPaymentItem,
  InvoicingPaymentItemIn,
  InvoicingPaymentItemUpdate,
  InvoicingPaymentMethodItem,
  LinkedDocument,
  ServicePage_InvoicingBankAccountItem_,
  ServicePage_InvoicingBankTransactionItem_,
  ServicePage_InvoicingPaymentItem_,
  ServicePage_InvoicingPaymentMethodItem_,
} from './payments.schemas.js';
export { ConsumerIdParam };

export const FieldRef = z
  .object({
    id: z.string().nullable().optional(),
    model: z.string().nullable().optional(),
    name: z.string().nullable().optional(),
  })
  .openapi('FieldRef', { description: 'A record of the connected software, with its name' });

// ---- contacts -------------------------------------------------------------------------------

export const ContactType = z
  .enum(['prospect', 'customer', 'supplier', 'all'])
  .openapi('ContactType', { description: 'Which contacts to list' });

const addressContact = {
  address_type: AddressTypeInvoicing,
  name: z.string().nullable().optional(),
  number: z.string().nullable().optional(),
  box: z.string().nullable().optional(),
  phone: z.string().nullable().optional(),
  mobile: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
};

export const AddressItemInInvoicing = z
  .object({
    ...addressContact,
    street: z.string(),
    city: z.string(),
    postal_code: z.string(),
    country: z.string().openapi({ description: 'ISO 3166-1 alpha-2 country code' }),
  })
  .openapi('AddressItemInInvoicing', { description: 'An address of a new contact' });

export const AddressItemOutInvoicing = z
  .object({
    ...addressContact,
    street: z.string().nullable().optional(),
    city: z.string().nullable().optional(),
    postal_code: z.string().nullable().optional(),
    country: z.string().nullable().optional().openapi({ description: 'ISO 3166-1 alpha-2 country code' }),
  })
  .openapi('AddressItemOutInvoicing', { description: 'An address of a contact' });

const contactFields = {
  is_prospect: z.boolean().nullable().optional(),
  is_customer: z.boolean().nullable().optional(),
  is_supplier: z.boolean().nullable().optional(),
  is_company: z.boolean().nullable().optional(),
  company_name: z.string().nullable().optional(),
  first_name: z.string().nullable().optional(),
  last_name: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  phone: z.string().nullable().optional(),
  mobile: z.string().nullable().optional(),
  company_id: z.string().nullable().optional(),
  vat: z.string().nullable().optional(),
  company_number: z.string().nullable().optional(),
  currency: z.string().nullable().optional().openapi({ description: 'ISO 4217 code' }),
  language: z.string().nullable().optional(),
  comment: z.string().nullable().optional(),
  customer_account_number: z.string().nullable().optional(),
  supplier_account_number: z.string().nullable().optional(),
  birthdate: z.iso.date().nullable().optional(),
  gender: itemOrNull(ContactGender).optional(),
};

export const ContactItemIn = z
  .object({
    ...contactFields,
    addresses: z.array(AddressItemInInvoicing).nullable().optional(),
  })
  .openapi('ContactItemIn', {
    description: 'A new contact: a company name or a person name; customer unless another role is given',
  });

export const ContactItemOut = z
  .object({
    id: z.string(),
    source_ref: Ref,
    ...contactFields,
    addresses: z.array(AddressItemOutInvoicing).nullable().optional(),
    external_reference: z.string().nullable().optional(),
  })
  .openapi('ContactItemOut', { description: 'A customer, supplier or prospect' });

export const ServicePage_ContactItemOut_ = servicePage(ContactItemOut, 'ContactItemOut');

// ---- products and taxes -------------------------------------------------------------------------

const productFields = {
  name: z.string(),
  unit_price: z.number().nullable().optional().openapi({ description: 'Price of one unit, taxes excluded' }),
  tax_id: z.string().nullable().optional().openapi({ description: 'Id of the tax applied by default' }),
  code: z.string().nullable().optional(),
  unit: z.string().nullable().optional(),
  category: z.string().nullable().optional(),
  currency: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  cost: z.number().nullable().optional(),
};

export const ProductItem = z
  .object(productFields)
  .openapi('ProductItem', { description: 'A new product or service' });

export const ProductItemOut = z
  .object({
    id: z.string(),
    source_ref: Ref,
    ...productFields,
    available_quantity: z
      .number()
      .nullable()
      .optional()
      .openapi({ description: 'Units in stock after the posted invoices; null for services' }),
  })
  .openapi('ProductItemOut', { description: 'A product or service sold or bought' });

export const ServicePage_ProductItemOut_ = servicePage(ProductItemOut, 'ProductItemOut');

export const InvoicingVatCode = z
  .object({
    id: z.string(),
    source_ref: Ref,
    label: z.string(),
    rate: z.number().openapi({ description: 'Percentage (21 for 21%)' }),
    type: VatCodeType,
    code: z.string().nullable().optional(),
    scope: itemOrNull(VatCodeScope).optional(),
    active: z.boolean().nullable().optional(),
  })
  .openapi('InvoicingVatCode', { description: 'A tax of the invoicing software' });

export const ServicePage_InvoicingVatCode_ = servicePage(InvoicingVatCode, 'InvoicingVatCode');

// ---- invoices -----------------------------------------------------------------------------------

export const InvoicingInvoiceType = z
  .enum(['customer_invoice', 'customer_refund', 'supplier_invoice', 'supplier_refund', 'all'])
  .openapi('InvoicingInvoiceType');

export const InvoiceStatus = z
  .enum(['cancelled', 'draft', 'posted', 'paid'])
  .openapi('InvoiceStatus', { description: 'paid: posted with nothing left to pay' });

export const AnalyticDistributionDetailInvoicing = z
  .object({
    analytic_account_code: z.string(),
    analytic_account_name: z.string(),
    percentage: z.number(),
  })
  .openapi('AnalyticDistributionDetailInvoicing');

export const AnalyticDistributionInvoicing = z
  .object({
    analytic_plan_code: z.string(),
    analytic_accounts: z.array(AnalyticDistributionDetailInvoicing),
  })
  .openapi('AnalyticDistributionInvoicing', { description: 'How a line is split over one analytic plan' });

export const WithholdingTaxReason = z
  .enum(['RT01', 'RT02', 'RT03', 'RT04', 'RT05', 'RT06'])
  .openapi('WithholdingTaxReason');

export const WithholdingTaxPaymentReason = z
  .enum([
    'A',
    'U',
    'R',
    'Q',
    'H',
    'V',
    'V2',
    'I',
    'J',
    'K',
    'P',
    'S',
    'T',
    'W',
    'X',
    'Y',
    'B',
    'C',
    'D',
    'E',
    'F',
    'G',
    'L',
    'L1',
    'M',
    'M1',
    'M2',
    'IN',
    'O',
    'O1',
    'V1',
  ])
  .openapi('WithholdingTaxPaymentReason');

export const InvoicingWithholdingTax = z
  .object({
    rate: z.number(),
    amount: z.number(),
    reason: itemOrNull(WithholdingTaxReason).optional(),
    payment_reason: itemOrNull(WithholdingTaxPaymentReason).optional(),
  })
  .openapi('InvoicingWithholdingTax');

export const WelfareFundType = z
  .enum(Array.from({ length: 22 }, (_, i) => `TC${String(i + 1).padStart(2, '0')}`) as [string, ...string[]])
  .openapi('WelfareFundType');

export const WelfareFund = z
  .object({ rate: z.number(), amount: z.number(), type: itemOrNull(WelfareFundType).optional() })
  .openapi('WelfareFund');

export const PaymentReportingMethod = z
  .enum(Array.from({ length: 23 }, (_, i) => `MP${String(i + 1).padStart(2, '0')}`) as [string, ...string[]])
  .openapi('PaymentReportingMethod');

export const PaymentReportingConditions = z
  .enum(['TP01', 'TP02', 'TP03'])
  .openapi('PaymentReportingConditions');

export const PaymentReporting = z
  .object({
    method: itemOrNull(PaymentReportingMethod).optional(),
    conditions: itemOrNull(PaymentReportingConditions).optional(),
  })
  .openapi('PaymentReporting');

const italianFields = {
  stamp_duty_amount: z.number().nullable().optional(),
  withholding_tax: itemOrNull(InvoicingWithholdingTax).optional(),
  welfare_fund: itemOrNull(WelfareFund).optional(),
  payment_reporting: itemOrNull(PaymentReporting).optional(),
};

export const ItalianSpecificitiesInput = z
  .object(italianFields)
  .openapi('ItalianSpecificities-Input', { description: 'Fields of Italian electronic invoices' });

export const ItalianSpecificitiesOutput = z
  .object(italianFields)
  .openapi('ItalianSpecificities-Output', { description: 'Fields of Italian electronic invoices' });

const lineFields = {
  description: z.string().nullable().optional(),
  unit_price: z.number(),
  quantity: z.number(),
  discount_amount: z.number().optional().openapi({ description: 'Discount on the line, taxes excluded' }),
  tax_amount: z.number(),
  untaxed_amount: z.number().openapi({ description: 'unit_price x quantity - discount_amount' }),
  total: z.number().openapi({ description: 'untaxed_amount + tax_amount' }),
  tax_rate: z.number().nullable().optional(),
  account_number: z.string().nullable().optional(),
  tax_id: z.string().nullable().optional(),
  tax_exemption_reason: z.string().nullable().optional(),
  unit_of_measure: z.string().nullable().optional(),
  product_id: z.string().nullable().optional(),
  product_code: z.string().nullable().optional(),
  product_name: z.string().nullable().optional(),
};

export const InvoiceLineItem = z
  .object(lineFields)
  .openapi('InvoiceLineItem', { description: 'A line of an invoice' });

export const InvoiceLineItemOut = z
  .object({
    ...lineFields,
    analytic_distribution: z.array(AnalyticDistributionInvoicing).nullable().optional(),
  })
  .openapi('InvoiceLineItemOut', { description: 'A line of an invoice' });

const invoiceFields = {
  currency: z.string(),
  status: InvoiceStatus,
  invoice_date: z.iso.date(),
  tax_amount: z.number(),
  untaxed_amount: z.number(),
  total: z.number(),
  partner_id: z.string().nullable().optional().openapi({ description: 'Id of the contact invoiced' }),
  invoice_number: z.string().nullable().optional(),
  due_date: z.iso.date().nullable().optional(),
  reference: z.string().nullable().optional(),
  payment_communication: z.string().nullable().optional(),
  customer_memo: z.string().nullable().optional(),
  journal_ref: itemOrNull(FieldRef).optional(),
};

export const InvoiceItemIn = z
  .object({
    ...invoiceFields,
    invoice_type: InvoicingCreateInvoiceType,
    lines: z.array(InvoiceLineItem).optional(),
    italian_specificities: itemOrNull(ItalianSpecificitiesInput).optional(),
  })
  .openapi('InvoiceItemIn', { description: 'A new invoice; its amounts must add up' });

const invoiceOutFields = {
  id: z.string(),
  source_ref: Ref,
  ...invoiceFields,
  invoice_type: InvoicingInvoiceType,
  lines: z.array(InvoiceLineItemOut).optional(),
  italian_specificities: itemOrNull(ItalianSpecificitiesOutput).optional(),
  last_updated_on: z.iso.datetime({ offset: true }).nullable().optional(),
  outstanding_amount: z.number().nullable().optional().openapi({ description: 'Amount left to pay' }),
  last_payment_date: z.iso.date().nullable().optional(),
  accounting_date: z.iso.date().nullable().optional(),
  payment_method_id: z.string().nullable().optional(),
  currency_exchange_rate: z.number().nullable().optional(),
};

export const InvoiceItemOut = z
  .object(invoiceOutFields)
  .openapi('InvoiceItemOut', { description: 'An invoice or credit note' });

export const InvoiceItemOutSingle = z
  .object({
    ...invoiceOutFields,
    pdf: z.string().nullable().optional().openapi({ description: 'The PDF, base64, when asked for' }),
  })
  .openapi('InvoiceItemOutSingle', { description: 'An invoice or credit note, with its PDF on request' });

export const ServicePage_InvoiceItemOut_ = servicePage(InvoiceItemOut, 'InvoiceItemOut');

export const AttachmentItemIn = z
  .object({
    base64_string: z.string().openapi({ description: 'The PDF, base64' }),
    document_type: InvoicingDocumentType,
  })
  .openapi('AttachmentItemIn', { description: 'A PDF to hand to the software' });

export const UploadDocumentItemOut = z
  .object({
    id: z.string(),
    source_ref: Ref,
    currency: z.string().nullable().optional(),
    invoice_type: itemOrNull(InvoicingInvoiceType).optional(),
    status: itemOrNull(InvoiceStatus).optional(),
    invoice_date: z.iso.date().nullable().optional(),
    tax_amount: z.number().nullable().optional(),
    untaxed_amount: z.number().nullable().optional(),
    total: z.number().nullable().optional(),
    lines: z.array(InvoiceLineItem).nullable().optional(),
    partner_id: z.string().nullable().optional(),
    invoice_number: z.string().nullable().optional(),
    due_date: z.iso.date().nullable().optional(),
    reference: z.string().nullable().optional(),
    payment_communication: z.string().nullable().optional(),
    customer_memo: z.string().nullable().optional(),
    journal_ref: itemOrNull(FieldRef).optional(),
    italian_specificities: itemOrNull(ItalianSpecificitiesOutput).optional(),
    last_updated_on: z.iso.datetime({ offset: true }).nullable().optional(),
    outstanding_amount: z.number().nullable().optional(),
    last_payment_date: z.iso.date().nullable().optional(),
    accounting_date: z.iso.date().nullable().optional(),
    payment_method_id: z.string().nullable().optional(),
    currency_exchange_rate: z.number().nullable().optional(),
  })
  .openapi('UploadDocumentItemOut', {
    description: 'The document received, waiting to be read by the software: its fields are still empty',
  });

// ---- opportunities ------------------------------------------------------------------------------

export const OpportunityItem = z
  .object({
    id: z.string(),
    source_ref: Ref,
    name: z.string(),
    total: z.number(),
    probability: z.number().openapi({ description: 'Chance of winning, in percent' }),
    status: OpportunityStatus,
    partner_id: z.string().nullable().optional(),
    comment: z.string().nullable().optional(),
    currency: z.string().nullable().optional(),
    description: z.string().nullable().optional(),
    pipe_status: z.string().nullable().optional(),
    pipe_name: z.string().nullable().optional(),
    created_date: z.iso.date().nullable().optional(),
    due_date: z.iso.date().nullable().optional(),
    end_date: z.iso.date().nullable().optional(),
    is_won: z.boolean().nullable().optional(),
    owner_ref: itemOrNull(FieldRef).optional(),
  })
  .openapi('OpportunityItem', { description: 'A sales opportunity' });

export const ServicePage_OpportunityItem_ = servicePage(OpportunityItem, 'OpportunityItem');

// ---- parameters ---------------------------------------------------------------------------------

const idParam = <N extends string>(name: N, what: string) =>
  ConsumerIdParam.extend({
    [name]: z.string().openapi({ param: { name, in: 'path' }, description: `Id of the ${what}` }),
  } as Record<N, z.ZodString>);

export const ContactIdParam = idParam('contact_id', 'contact');
export const ProductIdParam = idParam('product_id', 'product');
export const TaxIdParam = idParam('tax_id', 'tax');
export const InvoiceIdParam = idParam('invoice_id', 'invoice');
export const OpportunityIdParam = idParam('opportunity_id', 'opportunity');
export const PaymentIdParam = idParam('payment_id', 'payment');

const boolQuery = (name: string, description: string) =>
  // No zod default (it would be copied into the BoolParam component): absent reads as false.
  BoolParam.optional().openapi({
    param: { name, in: 'query' },
    description: `${description} (default false)`,
  });

const dateQuery = (name: string, description: string) =>
  z.iso
    .date()
    .optional()
    .openapi({ param: { name, in: 'query' }, description });

export const PageOnlyQuery = pageQuery({});

export const ContactsQuery = pageQuery({
  contact_type: ContactType.optional().openapi({
    param: { name: 'contact_type', in: 'query' },
    description: 'Only contacts of this role (default all)',
  }),
});

export const InvoicesQuery = pageQuery({
  date_from: dateQuery('date_from', 'Invoices dated on or after this day'),
  date_to: dateQuery('date_to', 'Invoices dated on or before this day'),
  invoice_type: InvoicingInvoiceType.optional().openapi({
    param: { name: 'invoice_type', in: 'query' },
    description: 'Only invoices of this type (default all)',
  }),
  payment_status: PaymentStatus.optional().openapi({
    param: { name: 'payment_status', in: 'query' },
    description: 'paid, unpaid (draft or posted with an open amount) or all (default)',
  }),
  updated_after: z.iso
    .datetime({ offset: true, local: true })
    .optional()
    .openapi({
      param: { name: 'updated_after', in: 'query' },
      description: 'Only invoices changed after this instant',
    }),
  include_invoice_lines: boolQuery(
    'include_invoice_lines',
    'Fill lines even where the software needs an extra request',
  ),
  include_analytic_accounts: boolQuery(
    'include_analytic_accounts',
    'Fill the analytic distribution of lines',
  ),
});

export const InvoiceQuery = z.object({
  include_pdf: boolQuery('include_pdf', 'Fill pdf with the invoice PDF, base64'),
  include_analytic_accounts: boolQuery(
    'include_analytic_accounts',
    'Fill the analytic distribution of lines',
  ),
});

export const PaymentsQuery = pageQuery({
  date_from: dateQuery('date_from', 'Payments made on or after this day'),
  date_to: dateQuery('date_to', 'Payments made on or before this day'),
});

export const BankTransactionsQuery = pageQuery({
  date_from: dateQuery('date_from', 'Transactions on or after this day'),
  date_to: dateQuery('date_to', 'Transactions on or before this day'),
  bank_account_id: z
    .string()
    .openapi({ param: { name: 'bank_account_id', in: 'query' }, description: 'Id of the bank account' }),
  status: BankTransactionStatus.optional().openapi({
    param: { name: 'status', in: 'query' },
    description: 'Only transactions of this status',
  }),
});

export type ContactInInput = z.infer<typeof ContactItemIn>;
export type ContactOut = z.infer<typeof ContactItemOut>;
export type ProductInInput = z.infer<typeof ProductItem>;
export type ProductOut = z.infer<typeof ProductItemOut>;
export type InvoiceInInput = z.infer<typeof InvoiceItemIn>;
export type InvoiceOut = z.infer<typeof InvoiceItemOut>;
export type InvoiceOutSingle = z.infer<typeof InvoiceItemOutSingle>;
export type InvoicesQueryInput = z.infer<typeof InvoicesQuery>;
export type PaymentInInput = z.infer<typeof InvoicingPaymentItemIn>;
export type PaymentUpdateInput = z.infer<typeof InvoicingPaymentItemUpdate>;
export type UploadDocumentOut = z.infer<typeof UploadDocumentItemOut>;
