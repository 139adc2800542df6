import type { z } from '@hono/zod-openapi';
import type { PaymentPaymentStatus, VatCodeScope, VatCodeType } from '../../../platform/wire.js';
import type { FieldRefValue, SourceRefValue } from '../../../store/world.js';
import type {
  AddressTypeInvoicing,
  BankTransactionStatus,
  ContactGender,
  InvoicingCreateInvoiceType,
  InvoicingDocumentType,
  LinkedDocumentType,
  OpportunityStatus,
} from './invoicing.values.js';

/**
 * The stored records of the Invoicing vertical: one dataset per (consumer, connection), built from
 * (seed, consumerid, connectionid) the first time the connection is used (invoicing.seed.ts) and then
 * changed by writes. Records hold what the software stores; the wire's derived values (an invoice's
 * open amount and paid status, bank balances) are computed from them when answering, never stored.
 * Enumerations are the wire's (invoicing.values.ts, which api/invoicing.schemas.ts uses too).
 */

export interface InvoicingAddress {
  address_type: z.infer<typeof AddressTypeInvoicing>;
  name: string | null;
  number: string | null;
  box: string | null;
  phone: string | null;
  mobile: string | null;
  email: string | null;
  street: string | null;
  city: string | null;
  postal_code: string | null;
  country: string | null;
}

export interface InvoicingContact {
  id: string;
  source_ref: SourceRefValue;
  is_prospect: boolean;
  is_customer: boolean;
  is_supplier: boolean;
  is_company: boolean;
  company_name: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  mobile: string | null;
  company_id: string | null;
  vat: string | null;
  company_number: string | null;
  currency: string | null;
  language: string | null;
  comment: string | null;
  customer_account_number: string | null;
  supplier_account_number: string | null;
  birthdate: string | null;
  gender: z.infer<typeof ContactGender> | null;
  addresses: InvoicingAddress[];
  external_reference: string | null;
  created_on: string;
}

export interface InvoicingProduct {
  id: string;
  source_ref: SourceRefValue;
  name: string;
  unit_price: number | null;
  tax_id: string | null;
  code: string | null;
  unit: string | null;
  category: string | null;
  currency: string | null;
  description: string | null;
  cost: number | null;
  /** Stock before the invoices of the dataset; null for products without stock (services). */
  initial_stock: number | null;
  created_on: string;
}

export interface InvoicingTax {
  id: string;
  source_ref: SourceRefValue;
  label: string;
  rate: number;
  type: z.infer<typeof VatCodeType>;
  code: string | null;
  scope: z.infer<typeof VatCodeScope>;
  active: boolean;
}

export interface InvoicingAnalyticDistribution {
  analytic_plan_code: string;
  analytic_accounts: { analytic_account_code: string; analytic_account_name: string; percentage: number }[];
}

export interface InvoicingInvoiceLine {
  description: string | null;
  unit_price: number;
  quantity: number;
  discount_amount: number;
  tax_amount: number;
  untaxed_amount: number;
  total: number;
  tax_rate: number | null;
  account_number: string | null;
  tax_id: string | null;
  tax_exemption_reason: string | null;
  unit_of_measure: string | null;
  product_id: string | null;
  product_code: string | null;
  product_name: string | null;
  analytic_distribution: InvoicingAnalyticDistribution[];
}

export type InvoicingInvoiceTypeValue = z.infer<typeof InvoicingCreateInvoiceType>;

export interface InvoicingInvoice {
  id: string;
  source_ref: SourceRefValue;
  invoice_type: InvoicingInvoiceTypeValue;
  /** As booked; 'paid' is derived from the payments, never stored. */
  status: 'draft' | 'posted' | 'cancelled';
  currency: string;
  currency_exchange_rate: number;
  invoice_date: string;
  due_date: string | null;
  accounting_date: string | null;
  untaxed_amount: number;
  tax_amount: number;
  total: number;
  lines: InvoicingInvoiceLine[];
  partner_id: string | null;
  invoice_number: string;
  reference: string | null;
  payment_communication: string | null;
  customer_memo: string | null;
  journal_ref: FieldRefValue | null;
  /** ItalianSpecificities as given (null for the seeded, non-Italian invoices). */
  italian_specificities: Record<string, unknown> | null;
  payment_method_id: string | null;
  created_on: string;
  last_updated_on: string;
}

export interface InvoicingPayment {
  id: string;
  source_ref: SourceRefValue;
  status: z.infer<typeof PaymentPaymentStatus>;
  description: string;
  amount: number;
  currency: string;
  payment_date: string;
  payment_method_id: string | null;
  invoice_id: string;
  created_on: string;
  last_updated_on: string;
}

export interface InvoicingPaymentMethod {
  id: string;
  source_ref: SourceRefValue;
  name: string;
}

export interface InvoicingBankAccount {
  id: string;
  source_ref: SourceRefValue;
  name: string;
  iban: string | null;
  currency: string | null;
  /** Balance before the first transaction; the wire's balance adds the done transactions. */
  opening_balance: number;
}

export interface InvoicingBankTransaction {
  id: string;
  source_ref: SourceRefValue;
  status: z.infer<typeof BankTransactionStatus>;
  bank_account_id: string;
  amount: number;
  date: string;
  description: string | null;
  currency: string;
  currency_exchange_rate: number;
  accounting_code: string | null;
  linked_documents: {
    id: string;
    source_ref: SourceRefValue;
    amount: number;
    type: z.infer<typeof LinkedDocumentType>;
  }[];
}

export interface InvoicingOpportunity {
  id: string;
  source_ref: SourceRefValue;
  name: string;
  total: number;
  probability: number;
  status: z.infer<typeof OpportunityStatus>;
  partner_id: string | null;
  comment: string | null;
  currency: string | null;
  description: string | null;
  pipe_status: string | null;
  pipe_name: string | null;
  created_date: string | null;
  due_date: string | null;
  end_date: string | null;
  is_won: boolean | null;
  owner_ref: FieldRefValue | null;
}

/** A PDF handed to upload-document: kept by its digest and size, not its bytes. */
export interface InvoicingDocument {
  id: string;
  document_type: z.infer<typeof InvoicingDocumentType>;
  sha256: string;
  bytes: number;
  created_on: string;
}

export interface InvoicingDataset {
  consumerid: string;
  connectionid: string;
  integrationid: number;
  /** Running numbers of the documents created through the API, per series. */
  counters: Record<string, number>;
  taxes: Record<string, InvoicingTax>;
  products: Record<string, InvoicingProduct>;
  contacts: Record<string, InvoicingContact>;
  payment_methods: Record<string, InvoicingPaymentMethod>;
  invoices: Record<string, InvoicingInvoice>;
  payments: Record<string, InvoicingPayment>;
  bank_accounts: Record<string, InvoicingBankAccount>;
  bank_transactions: Record<string, InvoicingBankTransaction>;
  opportunities: Record<string, InvoicingOpportunity>;
  documents: Record<string, InvoicingDocument>;
}

declare module '../../../store/world.js' {
  interface World {
    /** Invoicing datasets, keyed by datasetKey(consumerid, connectionid); built on first use. */
    invoicing_datasets: Record<string, InvoicingDataset>;
  }
}
