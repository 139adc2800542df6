import type { z } from '@hono/zod-openapi';
import type { AddressType, VatCodeScope, VatCodeType } from '../../../platform/wire.js';
import type {
  AccountItemType,
  DocumentType,
  InvoiceApprovalStatus,
  InvoiceType,
  JournalType,
} from './accounting.values.js';

/**
 * The stored records of the Accounting vertical. One LedgerRecord holds everything one accounting
 * folder (one company in the consumer's accounting software) contains. It is built from the seed the
 * first time the folder is reached (see world/ledgers.ts and world/accounting.seed.ts) and then
 * changed by writes. Journal entries are the source of truth: balances, open amounts, payment
 * statuses and outstanding items are computed from the entries and the matchings, never stored.
 * Enumerations are the wire's (accounting.values.ts and platform/wire.ts, which the schemas of
 * api/ use too).
 */

export type AccountItemTypeValue = z.infer<typeof AccountItemType>;

export type JournalTypeValue = z.infer<typeof JournalType>;

export type InvoiceTypeValue = z.infer<typeof InvoiceType>;

export interface LedgerAddress {
  address_type: z.infer<typeof AddressType>;
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

export interface LedgerBankAccount {
  is_primary: boolean;
  currency: string | null;
  iban: string | null;
  bic_swift: string | null;
  account_number: string | null;
}

export interface LedgerFolder {
  id: string;
  name: string;
  vat: string | null;
  company_number: string | null;
  main_currency: string;
  address: {
    street: string | null;
    number: string | null;
    box: string | null;
    postal_code: string | null;
    city: string | null;
    country: string | null;
  };
}

export interface LedgerBookYear {
  name: string;
  /** ISO dates, both inclusive. */
  start: string;
  end: string;
  closed: boolean;
}

/** The accounts a posting uses when the input names none. */
export interface LedgerDefaults {
  receivable_account: string;
  payable_account: string;
  employee_account: string;
}

export interface LedgerAccount {
  number: string;
  name: string;
  type: AccountItemTypeValue;
  active: boolean;
  scheme_ids: string[] | null;
  accounting_category: string | null;
}

export interface LedgerJournal {
  id: string;
  code: string;
  name: string;
  journal_type: JournalTypeValue;
  counterpart_account: string | null;
  unallocated_account: string | null;
  iban: string | null;
  bank_name: string | null;
  currency: string | null;
  other_currencies_allowed: boolean;
  blocked: boolean;
  /** A bank journal's account number at the bank (besides its IBAN), when it has one. */
  bank_account_number?: string | null;
}

export interface LedgerVatCode {
  id: string;
  code: string;
  label: string;
  active: boolean;
  scope: z.infer<typeof VatCodeScope>;
  rate: number;
  type: z.infer<typeof VatCodeType>;
  deductible_account: string | null;
  payable_account: string | null;
  reversed: boolean;
  withholding_tax: boolean;
  country: string | null;
}

export interface LedgerAnalyticPlan {
  id: string;
  name: string;
  active: boolean;
  parent_id: string | null;
}

export interface LedgerAnalyticAccount {
  id: string;
  plan_id: string;
  code: string;
  name: string;
  active: boolean;
  currency: string;
}

export interface LedgerScheme {
  id: string;
  code: string;
  name: string;
}

/**
 * A client, a supplier, or both (integrations with features.unified_partners keep one entity for
 * both roles). Each role posts to its own account: client_account (receivable) and supplier_account
 * (payable), null while the partner does not have that role.
 */
export interface LedgerPartner {
  id: string;
  is_client: boolean;
  is_supplier: boolean;
  /** The partner's code in the software (shown as third_party_account). */
  code: string;
  external_reference: string | null;
  first_name: string | null;
  last_name: string | null;
  name: string;
  function: string | null;
  is_company: boolean;
  company_id: string | null;
  phone: string | null;
  mobile: string | null;
  email: string | null;
  language: string | null;
  internal_notes: string | null;
  website: string | null;
  vat: string | null;
  company_number: string | null;
  iban: string | null;
  bank_account: string | null;
  currency: string | null;
  active: boolean;
  client_account: string | null;
  supplier_account: string | null;
  addresses: LedgerAddress[];
  bank_accounts: LedgerBankAccount[];
  created_on: string;
  last_updated_on: string;
}

export interface LedgerContact {
  id: string;
  partner_id: string;
  name: string;
  first_name: string | null;
  last_name: string | null;
  function: string | null;
  email: string | null;
  phone: string | null;
  mobile: string | null;
}

export interface LedgerEmployee {
  id: string;
  name: string;
  first_name: string | null;
  last_name: string | null;
  function: string | null;
  phone: string | null;
  mobile: string | null;
  email: string | null;
  active: boolean;
  reference: string | null;
  account_number: string;
}

export interface LedgerPaymentMethod {
  id: string;
  name: string;
  /** The financial journal a payment made this way is booked in. */
  journal_id: string;
}

export interface LedgerPaymentTerm {
  id: string;
  name: string;
  days: number;
  end_of_month: boolean;
}

/** A document attached to an invoice or an entry, kept as base64. */
export interface LedgerAttachment {
  id: string;
  document_type: z.infer<typeof DocumentType>;
  document_id: string;
  filename: string;
  base64_string: string;
  created_on: string;
}

export interface LedgerAnalyticDistribution {
  analytic_plan: string;
  analytic_accounts: { analytic_account: string; percentage: number }[];
}

export interface LedgerInvoiceLine {
  line_number: number;
  unit_price: number;
  unit_of_measure: string | null;
  quantity: number;
  untaxed_amount: number;
  tax_rate: number;
  tax_amount: number;
  total: number;
  account_number: string;
  tax_code: string;
  description: string;
  analytic_distribution: LedgerAnalyticDistribution[];
}

export interface LedgerInvoice {
  id: string;
  invoice_type: InvoiceTypeValue;
  invoice_number: string;
  currency: string;
  currency_exchange_rate: number;
  untaxed_amount: number;
  tax_amount: number;
  total: number;
  reference: string | null;
  payment_communication: string | null;
  customer_memo: string | null;
  payment_term_id: string | null;
  withholding_tax: { tax_rate: number; tax_code: string; tax_amount: number } | null;
  invoice_date: string;
  due_date: string;
  partner_id: string;
  journal_id: string;
  /** As booked; 'paid' is derived from the open amount, never stored. */
  status: 'draft' | 'posted' | 'cancelled';
  payment_method_id: string | null;
  approval_status: z.infer<typeof InvoiceApprovalStatus>;
  start_date: string | null;
  end_date: string | null;
  shipping_country: string | null;
  lines: LedgerInvoiceLine[];
  /** The journal entry the invoice posted, and its line on the partner's account. */
  entry_id: string;
  partner_line_id: string;
  created_on: string;
  last_updated_on: string;
}

/** Where an entry comes from: the operation that booked it. */
export type LedgerEntryOrigin =
  | 'invoice'
  | 'invoice_payment'
  | 'journal_entry'
  | 'salary'
  | 'opening'
  | 'financial_entry'
  | 'miscellaneous_operation'
  | 'expense'
  | 'bank_transaction';

export interface LedgerEntryLine {
  id: string;
  account_number: string;
  /** The client or supplier of a line on a receivable or payable account. */
  partner_id: string | null;
  employee_id: string | null;
  description: string | null;
  debit: number;
  credit: number;
  analytic_distribution: LedgerAnalyticDistribution[];
  tax_code: string | null;
}

export interface LedgerEntry {
  id: string;
  journal_id: string;
  number: string;
  date: string;
  due_date: string | null;
  reference: string | null;
  /** Unposted (draft) entries are listed on request but move no balance and cannot be matched. */
  posted: boolean;
  currency: string;
  /** Units of the folder's main currency for one unit of `currency`. */
  currency_exchange_rate: number;
  origin: LedgerEntryOrigin;
  invoice_id: string | null;
  payment_method_id: string | null;
  start_date: string | null;
  end_date: string | null;
  lines: LedgerEntryLine[];
  created_on: string;
  last_updated_on: string;
}

/**
 * Lines settled against each other (a payment against an invoice, a refund against an invoice...).
 * Each allocation takes `amount` (in the entry's currency, positive) off the open amount of a line.
 */
export interface LedgerMatching {
  number: string;
  partner_id: string;
  date: string;
  allocations: { entry_id: string; line_id: string; amount: number }[];
  created_on: string;
}

export interface LedgerRecord {
  consumerid: string;
  folderid: string;
  integrationid: number;
  /** Running numbers: documents per journal and book year, matchings, partner codes. */
  counters: Record<string, number>;
  folder: LedgerFolder;
  defaults: LedgerDefaults;
  bookyears: LedgerBookYear[];
  /** Keyed by account number. */
  accounts: Record<string, LedgerAccount>;
  journals: Record<string, LedgerJournal>;
  vat_codes: Record<string, LedgerVatCode>;
  analytic_plans: Record<string, LedgerAnalyticPlan>;
  analytic_accounts: Record<string, LedgerAnalyticAccount>;
  schemes: Record<string, LedgerScheme>;
  partners: Record<string, LedgerPartner>;
  contacts: Record<string, LedgerContact>;
  employees: Record<string, LedgerEmployee>;
  payment_methods: Record<string, LedgerPaymentMethod>;
  payment_terms: Record<string, LedgerPaymentTerm>;
  attachments: Record<string, LedgerAttachment>;
  invoices: Record<string, LedgerInvoice>;
  entries: Record<string, LedgerEntry>;
  /** Keyed by matching number. */
  matchings: Record<string, LedgerMatching>;
  /** Bank statements imported through bank-transactions (absent from ledgers built before them). */
  bank_statements?: Record<string, LedgerBankStatement>;
}

/** A bank statement: its transactions are booked as one entry each in the bank account's journal. */
export interface LedgerBankStatement {
  id: string;
  /** The bank account (a bank journal) the statement belongs to. */
  journal_id: string;
  external_bank_statement_id: string;
  date: string;
  currency: string;
  opening_balance: number | null;
  /** The entry of each transaction, in the statement's order. */
  entry_ids: string[];
  created_on: string;
}

export const ledgerKey = (consumerid: string, folderid: string) => `${consumerid}:${folderid}`;

declare module '../../../store/world.js' {
  interface World {
    /** Accounting folders' ledgers, keyed by ledgerKey(consumerid, folderid); built on first use. */
    accounting_ledgers: Record<string, LedgerRecord>;
  }
}
