import { serviceError } from '../../../lib/errors.js';
import { own } from '../../../lib/own.js';
import type {
  InvoiceTypeValue,
  LedgerAnalyticDistribution,
  LedgerInvoice,
  LedgerRecord,
} from '../model/accounting.records.js';
import {
  instantOf,
  invoiceOpenCents,
  invoiceSettlements,
  invoiceStatus,
  isCustomerType,
  matchedCentsByLine,
} from '../model/ledger/derived.js';
import { fromCents, inMainCurrency, round2 } from '../model/ledger/money.js';
import type { InvoiceDraft, PaymentDraft } from '../model/ledger/posting.js';
import type {
  InvoiceMonoInput,
  InvoiceMonoOut,
  InvoiceMultiInput,
  InvoiceMultiOut,
  InvoicePaymentInput,
  PaymentOut,
} from './invoices.schemas.js';
import { toPartnerItem } from './partners.domain.js';

/**
 * Invoices: the API's input turned into an InvoiceDraft for the posting functions, and the stored
 * invoice turned back into the wire shape with what the ledger derives (status, payments, due dates).
 */

export interface DraftOptions {
  force_financial_period?: string | undefined;
  regroup_lines?: string | undefined;
}

type InvoiceInput = InvoiceMonoInput | InvoiceMultiInput;

function draftOf(input: InvoiceInput, lines: InvoiceDraft['lines'], options: DraftOptions): InvoiceDraft {
  return {
    invoice_type: input.invoice_type,
    invoice_number: input.invoice_number ?? null,
    currency: input.currency,
    currency_exchange_rate: input.currency_exchange_rate ?? 1,
    untaxed_amount: input.untaxed_amount,
    tax_amount: input.tax_amount,
    total: input.total,
    reference: input.reference ?? null,
    payment_communication: input.payment_communication ?? null,
    customer_memo: input.customer_memo ?? null,
    payment_term_id: input.payment_term_id ?? null,
    withholding_tax: input.withholding_tax ?? null,
    invoice_date: input.invoice_date,
    due_date: input.due_date,
    partner_id: input.partner_id ?? null,
    journal_id: input.journal_id ?? null,
    status: input.status ?? 'posted',
    pdf: input.pdf ?? null,
    pdf_name: input.pdf_name ?? null,
    payment_method_id: input.payment_method_id ?? null,
    start_date: input.start_date ?? null,
    end_date: input.end_date ?? null,
    shipping_country: input.shipping_country ?? null,
    approval_status: 'unknown',
    force_financial_period: options.force_financial_period ?? null,
    regroup_lines: options.regroup_lines !== 'false',
    lines,
  };
}

/** A mono-plan invoice: each line's analytic account stands for 100% of its plan. */
export function draftFromMono(
  ledger: LedgerRecord,
  input: InvoiceMonoInput,
  options: DraftOptions,
): InvoiceDraft {
  const lines = input.lines.map((line, i) => {
    let distribution: LedgerAnalyticDistribution[] = [];
    if (line.analytic_account) {
      const account = own(ledger.analytic_accounts, line.analytic_account);
      if (!account) {
        throw serviceError(
          'analyticAccountNotFound',
          `lines[${i}]: the analytic account '${line.analytic_account}' does not exist`,
        );
      }
      distribution = [
        {
          analytic_plan: account.plan_id,
          analytic_accounts: [{ analytic_account: account.id, percentage: 100 }],
        },
      ];
    }
    return {
      line_number: line.line_number ?? i + 1,
      unit_price: line.unit_price,
      unit_of_measure: line.unit_of_measure ?? null,
      quantity: line.quantity,
      untaxed_amount: line.untaxed_amount,
      tax_rate: line.tax_rate,
      tax_amount: line.tax_amount,
      total: line.total,
      account_number: line.account_number,
      tax_code: line.tax_code,
      description: line.description ?? '',
      analytic_distribution: distribution,
    };
  });
  return draftOf(input, lines, options);
}

export function draftFromMulti(input: InvoiceMultiInput, options: DraftOptions): InvoiceDraft {
  const lines = input.lines.map((line, i) => ({
    line_number: line.line_number ?? i + 1,
    unit_price: line.unit_price,
    unit_of_measure: line.unit_of_measure ?? null,
    quantity: line.quantity,
    untaxed_amount: line.untaxed_amount,
    tax_rate: line.tax_rate,
    tax_amount: line.tax_amount,
    total: line.total,
    account_number: line.account_number,
    tax_code: line.tax_code,
    description: line.description ?? '',
    analytic_distribution: (line.analytic_distribution ?? []).map((d) => ({
      analytic_plan: d.analytic_plan,
      analytic_accounts: d.analytic_accounts.map((a) => ({ ...a })),
    })),
  }));
  return draftOf(input, lines, options);
}

export function draftPayment(input: InvoicePaymentInput): PaymentDraft {
  return {
    date: input.date,
    payment_method_id: input.payment_method_id,
    currency: input.currency,
    currency_exchange_rate: input.currency_exchange_rate ?? 1,
    reference: input.reference ?? null,
    number: input.number ?? null,
    items: input.items.map((item) => ({ invoice_id: item.invoice_id, amount: item.amount })),
  };
}

export function requireInvoice(ledger: LedgerRecord, id: string): LedgerInvoice {
  const invoice = own(ledger.invoices, id.toLowerCase());
  if (!invoice)
    throw serviceError('accountingInvoiceNotFound', `No invoice with the id '${id}' in the folder`);
  return invoice;
}

/** The entries that settled an invoice, as payments. */
export function paymentsOf(ledger: LedgerRecord, invoice: LedgerInvoice): PaymentOut[] {
  return invoiceSettlements(ledger, invoice).map(({ matching, entry, line, dedicatedCents }) => {
    const journal = own(ledger.journals, entry.journal_id);
    return {
      id: entry.id,
      name: entry.number,
      currency: entry.currency,
      amount: round2(Math.abs(line.debit - line.credit)),
      dedicated_amount: fromCents(dedicatedCents),
      payment_date: entry.date,
      journal_type: journal?.journal_type ?? 'unknown',
      journal_id: entry.journal_id,
      journal_name: journal?.name ?? '',
      reconciled: true,
      communication: entry.reference,
      matching_number: matching.number,
    };
  });
}

export interface InvoiceViewOptions {
  lines: boolean;
  payments: boolean;
  partner: boolean;
}

/** The invoice on the wire, with lines, payments and partner when asked for. */
export function toInvoiceItem(
  ledger: LedgerRecord,
  invoice: LedgerInvoice,
  variant: 'mono',
  options: InvoiceViewOptions,
  matched?: Map<string, number>,
): InvoiceMonoOut;
export function toInvoiceItem(
  ledger: LedgerRecord,
  invoice: LedgerInvoice,
  variant: 'multi',
  options: InvoiceViewOptions,
  matched?: Map<string, number>,
): InvoiceMultiOut;
export function toInvoiceItem(
  ledger: LedgerRecord,
  invoice: LedgerInvoice,
  variant: 'mono' | 'multi',
  options: InvoiceViewOptions,
  matched = matchedCentsByLine(ledger),
): InvoiceMonoOut | InvoiceMultiOut {
  const partner = own(ledger.partners, invoice.partner_id);
  const method = invoice.payment_method_id
    ? own(ledger.payment_methods, invoice.payment_method_id)
    : undefined;
  const attachments = Object.values(ledger.attachments).filter(
    (a) => a.document_type === 'invoice' && a.document_id === invoice.id,
  );
  const entry = own(ledger.entries, invoice.entry_id);
  const partnerLine = entry?.lines.find((l) => l.id === invoice.partner_line_id);
  const head = {
    id: invoice.id,
    invoice_type: invoice.invoice_type,
    invoice_number: invoice.invoice_number,
    currency: invoice.currency,
    untaxed_amount: invoice.untaxed_amount,
    tax_amount: invoice.tax_amount,
    total: invoice.total,
    reference: invoice.reference,
    payment_communication: invoice.payment_communication,
    customer_memo: invoice.customer_memo,
    payment_term_id: invoice.payment_term_id,
    withholding_tax: invoice.withholding_tax ? { ...invoice.withholding_tax } : null,
    invoice_date: invoice.invoice_date,
    due_date: invoice.due_date,
    partner_id: invoice.partner_id,
    journal_id: invoice.journal_id,
    payments: options.payments ? paymentsOf(ledger, invoice) : null,
    status: invoiceStatus(ledger, invoice, matched),
    last_updated_on: invoice.last_updated_on,
    partner:
      options.partner && partner
        ? toPartnerItem(partner, isCustomerType(invoice.invoice_type) ? 'client' : 'supplier')
        : null,
    due_dates: [
      {
        due_date: invoice.due_date,
        payment_method: method?.name ?? null,
        payment_method_id: method?.id ?? null,
        amount: invoice.total,
      },
    ],
    attachments_info: {
      status: attachments.length ? ('yes' as const) : ('no' as const),
      attachments: attachments.map((a) => ({ filename: a.filename, url: null })),
    },
    accounting_info: {
      main_currency: ledger.folder.main_currency,
      main_currency_total: inMainCurrency(invoice.total, invoice.currency_exchange_rate),
      account_number: partnerLine?.account_number ?? null,
    },
    payment_method_id: invoice.payment_method_id,
    approval_status: invoice.approval_status,
  };
  const base = (line: LedgerInvoice['lines'][number]) => ({
    line_number: line.line_number,
    unit_price: line.unit_price,
    unit_of_measure: line.unit_of_measure,
    quantity: line.quantity,
    untaxed_amount: line.untaxed_amount,
    tax_rate: line.tax_rate,
    tax_amount: line.tax_amount,
    total: line.total,
    account_number: line.account_number,
    tax_code: line.tax_code,
    description: line.description,
  });
  if (variant === 'mono') {
    return {
      ...head,
      lines: options.lines
        ? invoice.lines.map((line) => ({
            ...base(line),
            analytic_account: line.analytic_distribution[0]?.analytic_accounts[0]?.analytic_account ?? null,
          }))
        : [],
    };
  }
  return {
    ...head,
    lines: options.lines
      ? invoice.lines.map((line) => ({
          ...base(line),
          analytic_distribution: line.analytic_distribution.map((d) => ({
            analytic_plan: d.analytic_plan,
            analytic_accounts: d.analytic_accounts.map((a) => ({ ...a })),
          })),
        }))
      : [],
  };
}

export interface InvoiceFilters {
  date_from?: string | undefined;
  date_to?: string | undefined;
  journal_ids?: string | undefined;
  payment_status?: 'all' | 'unpaid' | 'paid' | undefined;
  updated_after?: string | undefined;
  approval_status?: 'pending' | 'approved' | 'rejected' | undefined;
}

/**
 * Invoices of a type, oldest first. payment_status: paid = nothing left to pay; unpaid = something
 * left to pay (drafts included, cancelled invoices left out).
 */
export function listInvoices(
  ledger: LedgerRecord,
  type: InvoiceTypeValue,
  filters: InvoiceFilters,
  matched = matchedCentsByLine(ledger),
): LedgerInvoice[] {
  const journals = filters.journal_ids
    ?.split(',')
    .map((j) => j.trim())
    .filter(Boolean);
  const after = filters.updated_after ? instantOf(filters.updated_after) : undefined;
  return Object.values(ledger.invoices)
    .filter((inv) => inv.invoice_type === type)
    .filter((inv) => !filters.date_from || inv.invoice_date >= filters.date_from)
    .filter((inv) => !filters.date_to || inv.invoice_date <= filters.date_to)
    .filter((inv) => !journals?.length || journals.includes(inv.journal_id))
    .filter((inv) => after === undefined || Date.parse(inv.last_updated_on) > after)
    .filter((inv) => !filters.approval_status || inv.approval_status === filters.approval_status)
    .filter((inv) => {
      if (!filters.payment_status || filters.payment_status === 'all') return true;
      const status = invoiceStatus(ledger, inv, matched);
      if (filters.payment_status === 'paid') return status === 'paid';
      return status !== 'paid' && status !== 'cancelled' && invoiceOpenCents(ledger, inv, matched) > 0;
    })
    .sort(
      (a, b) =>
        a.invoice_date.localeCompare(b.invoice_date) ||
        a.invoice_number.localeCompare(b.invoice_number) ||
        a.id.localeCompare(b.id),
    );
}
