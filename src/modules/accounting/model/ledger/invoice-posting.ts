import { errors, type ServiceErrorName, serviceError } from '../../../../lib/errors.js';
import { own } from '../../../../lib/own.js';
import type {
  LedgerEntry,
  LedgerEntryLine,
  LedgerInvoice,
  LedgerInvoiceLine,
  LedgerJournal,
  LedgerRecord,
} from '../accounting.records.js';
import { isCustomerType, journalSideAccepts } from './derived.js';
import { fromCents, round2, sumCents, toCents } from './money.js';
import {
  assertNumberFree,
  attachmentOf,
  type LedgerChange,
  lineIdOf,
  mintDocumentNumber,
  type PostingContext,
  sides,
} from './posting-core.js';
import {
  assertAnalyticDistribution,
  assertCurrency,
  assertFinancialPeriod,
  assertJournalCurrency,
  assertPdf,
  exchangeRateOf,
  requireAccount,
  requireJournal,
  requireOpenBookYear,
  requirePartner,
  requirePaymentMethod,
  requirePaymentTerm,
  requireVatCode,
} from './rules.js';

const fail = errors.accountingFailure;

/** Invoices (customer and supplier, invoices and refunds): the draft and its posting. */

export interface InvoiceDraft {
  invoice_type: LedgerInvoice['invoice_type'];
  invoice_number: string | null;
  currency: string;
  currency_exchange_rate: number;
  untaxed_amount: number;
  tax_amount: number;
  total: number;
  reference: string | null;
  payment_communication: string | null;
  customer_memo: string | null;
  payment_term_id: string | null;
  withholding_tax: LedgerInvoice['withholding_tax'];
  invoice_date: string;
  due_date: string;
  partner_id: string | null;
  journal_id: string | null;
  status: 'draft' | 'posted';
  pdf: string | null;
  pdf_name: string | null;
  payment_method_id: string | null;
  start_date: string | null;
  end_date: string | null;
  shipping_country: string | null;
  approval_status: LedgerInvoice['approval_status'];
  force_financial_period: string | null;
  /** Book one entry line per invoice line (false) or per account, VAT code and analytic split (true). */
  regroup_lines: boolean;
  lines: LedgerInvoiceLine[];
}

/** The journal an invoice goes to when the input names none: the only one of its type, or of its side. */
export function defaultInvoiceJournal(
  ledger: LedgerRecord,
  type: LedgerInvoice['invoice_type'],
): LedgerJournal {
  const open = Object.values(ledger.journals).filter((j) => !j.blocked);
  const exact = open.filter((j) => j.journal_type === type);
  const candidates = exact.length ? exact : open.filter((j) => journalSideAccepts(j, type));
  if (candidates.length === 1) return candidates[0] as LedgerJournal;
  if (candidates.length === 0)
    throw serviceError('journalNotFound', `No journal of the folder can book a ${type}`);
  throw serviceError('multipleJournals', `Several journals can book a ${type}: give journal_id`);
}

/** The line's amounts agree with each other and with its VAT code, to the cent. */
function assertInvoiceLine(line: LedgerInvoiceLine, rate: number, reversed: boolean, where: string): void {
  if (Math.abs(toCents(line.quantity * line.unit_price) - toCents(line.untaxed_amount)) > 1) {
    throw fail(
      `${where}: untaxed_amount ${line.untaxed_amount} is not quantity ${line.quantity} x unit_price ${line.unit_price}`,
    );
  }
  if (line.tax_rate !== rate) {
    throw fail(`${where}: tax_rate ${line.tax_rate} is not the rate ${rate} of its VAT code`);
  }
  const expectedTax = reversed ? 0 : round2((line.untaxed_amount * rate) / 100);
  if (Math.abs(toCents(expectedTax) - toCents(line.tax_amount)) > 1) {
    throw fail(
      reversed
        ? `${where}: a reverse-charge VAT code takes a tax_amount of 0`
        : `${where}: tax_amount ${line.tax_amount} is not ${rate}% of ${line.untaxed_amount} (${expectedTax})`,
    );
  }
  if (toCents(line.untaxed_amount) + toCents(line.tax_amount) !== toCents(line.total)) {
    throw fail(`${where}: total ${line.total} is not untaxed_amount + tax_amount`);
  }
}

/** The invoice's amounts are the sums of its lines, and total = untaxed + tax, to the cent. */
function assertInvoiceTotals(draft: InvoiceDraft): void {
  const untaxed = sumCents(draft.lines.map((l) => l.untaxed_amount));
  const tax = sumCents(draft.lines.map((l) => l.tax_amount));
  if (untaxed !== toCents(draft.untaxed_amount)) {
    throw fail(`untaxed_amount ${draft.untaxed_amount} is not the sum of the lines (${fromCents(untaxed)})`);
  }
  if (tax !== toCents(draft.tax_amount)) {
    throw fail(`tax_amount ${draft.tax_amount} is not the sum of the lines (${fromCents(tax)})`);
  }
  if (toCents(draft.untaxed_amount) + toCents(draft.tax_amount) !== toCents(draft.total)) {
    throw fail(`total ${draft.total} is not untaxed_amount + tax_amount`);
  }
  if (untaxed === 0) throw serviceError('zeroInvoice', 'The lines add up to an untaxed amount of 0');
  if (toCents(draft.total) < 0) throw fail('An invoice total cannot be negative: book a refund instead');
}

/** Checks an invoice and builds it with the journal entry it posts. */
/** Checks an invoice draft against the ledger: its partner, journal, book year, lines and totals. */
function checkInvoiceDraft(ledger: LedgerRecord, draft: InvoiceDraft) {
  const customer = isCustomerType(draft.invoice_type);
  const role = customer ? 'client' : 'supplier';
  assertCurrency(draft.currency, null);
  const rate = exchangeRateOf(ledger, draft.currency, draft.currency_exchange_rate);
  assertFinancialPeriod(draft.force_financial_period);
  if (!draft.partner_id) throw fail('partner_id is required: the client or supplier of the invoice');
  // An inactive (archived) client or supplier still takes invoices, as in the software.
  const partner = requirePartner(ledger, draft.partner_id, role);
  const journal = draft.journal_id
    ? requireJournal(ledger, draft.journal_id)
    : defaultInvoiceJournal(ledger, draft.invoice_type);
  if (!journalSideAccepts(journal, draft.invoice_type)) {
    throw serviceError(
      'journalNotGoodScope',
      `The journal '${journal.code}' (${journal.journal_type}) cannot book a ${draft.invoice_type}`,
    );
  }
  assertJournalCurrency(journal, draft.currency);
  const year = requireOpenBookYear(ledger, draft.invoice_date, 'invoice_date', draft.status === 'posted');
  if (draft.lines.length === 0) throw serviceError('noInvoiceLine', 'The invoice has no line');
  const vatSide = customer ? 'sale' : 'purchase';
  draft.lines.forEach((line, i) => {
    const where = `lines[${i}]`;
    requireAccount(ledger, line.account_number);
    const code = requireVatCode(ledger, line.tax_code, vatSide);
    assertInvoiceLine(line, code.rate, code.reversed, where);
    assertAnalyticDistribution(ledger, line.analytic_distribution, where);
  });
  assertInvoiceTotals(draft);
  if (draft.payment_term_id) requirePaymentTerm(ledger, draft.payment_term_id);
  if (draft.payment_method_id) requirePaymentMethod(ledger, draft.payment_method_id);
  if (draft.withholding_tax) requireVatCode(ledger, draft.withholding_tax.tax_code);
  if (draft.pdf) assertPdf(draft.pdf);
  const partnerAccount = customer ? partner.client_account : partner.supplier_account;
  const accountNumber =
    partnerAccount ?? (customer ? ledger.defaults.receivable_account : ledger.defaults.payable_account);
  requireAccount(ledger, accountNumber);
  return { customer, rate, partner, journal, year, accountNumber };
}

/**
 * The revenue or expense lines of an invoice, regrouped by account, VAT code and analytic split
 * unless asked not to.
 */
function revenueLines(draft: InvoiceDraft, direction: number): Omit<LedgerEntryLine, 'id'>[] {
  const lines: Omit<LedgerEntryLine, 'id'>[] = [];
  const grouped = new Map<string, { line: LedgerInvoiceLine; cents: number }>();
  draft.lines.forEach((line, i) => {
    const key = draft.regroup_lines
      ? `${line.account_number}|${line.tax_code}|${JSON.stringify(line.analytic_distribution)}`
      : String(i);
    const group = grouped.get(key);
    if (group) group.cents += toCents(line.untaxed_amount);
    else grouped.set(key, { line, cents: toCents(line.untaxed_amount) });
  });
  for (const { line, cents } of grouped.values()) {
    lines.push({
      account_number: line.account_number,
      partner_id: null,
      employee_id: null,
      description: line.description || null,
      ...sides(-direction * cents),
      analytic_distribution: line.analytic_distribution,
      tax_code: line.tax_code,
    });
  }
  return lines;
}

/** The VAT lines of an invoice, one per VAT code; a reverse-charge code books the VAT both ways. */
function vatLines(
  ledger: LedgerRecord,
  draft: InvoiceDraft,
  customer: boolean,
  direction: number,
): Omit<LedgerEntryLine, 'id'>[] {
  const lines: Omit<LedgerEntryLine, 'id'>[] = [];
  const vat = new Map<string, number>();
  const reversedVat = new Map<string, number>();
  for (const line of draft.lines) {
    const code = own(ledger.vat_codes, line.tax_code);
    if (!code) continue;
    if (code.reversed) {
      const due = toCents(round2((line.untaxed_amount * code.rate) / 100));
      reversedVat.set(code.id, (reversedVat.get(code.id) ?? 0) + due);
    } else {
      vat.set(code.id, (vat.get(code.id) ?? 0) + toCents(line.tax_amount));
    }
  }
  for (const [codeId, cents] of vat) {
    if (cents === 0) continue;
    const code = own(ledger.vat_codes, codeId);
    const account = customer ? code?.payable_account : code?.deductible_account;
    if (!code || !account) throw fail(`The VAT code '${code?.code ?? codeId}' has no VAT account`);
    requireAccount(ledger, account);
    lines.push({
      account_number: account,
      partner_id: null,
      employee_id: null,
      description: code.label,
      ...sides(-direction * cents),
      analytic_distribution: [],
      tax_code: code.id,
    });
  }
  for (const [codeId, cents] of reversedVat) {
    if (cents === 0) continue;
    const code = own(ledger.vat_codes, codeId);
    if (!code?.deductible_account || !code.payable_account) {
      throw fail(`The reverse-charge VAT code '${code?.code ?? codeId}' needs both VAT accounts`);
    }
    requireAccount(ledger, code.deductible_account);
    requireAccount(ledger, code.payable_account);
    for (const [account, sign] of [
      [code.deductible_account, 1],
      [code.payable_account, -1],
    ] as const) {
      lines.push({
        account_number: account,
        partner_id: null,
        employee_id: null,
        description: code.label,
        ...sides(sign * -direction * cents),
        analytic_distribution: [],
        tax_code: code.id,
      });
    }
  }
  return lines;
}

export function buildInvoice(
  ledger: LedgerRecord,
  draft: InvoiceDraft,
  ctx: PostingContext,
): { invoice: LedgerInvoice; change: LedgerChange } {
  const { customer, rate, partner, journal, year, accountNumber } = checkInvoiceDraft(ledger, draft);
  let number = draft.invoice_number;
  let counters: Record<string, number> = {};
  if (number) assertNumberFree(ledger, journal, number, 'invoiceNumberAlreadyUsed');
  else ({ number, counters } = mintDocumentNumber(ledger, journal, year.name));

  const invoiceId = ctx.mint('accounting-invoice');
  const entryId = ctx.mint('accounting-entry');
  // The partner's side: debit for a customer invoice or a supplier refund, credit otherwise.
  const direction =
    draft.invoice_type === 'customer_invoice' || draft.invoice_type === 'supplier_refund' ? 1 : -1;
  const lines: Omit<LedgerEntryLine, 'id'>[] = [
    {
      account_number: accountNumber,
      partner_id: partner.id,
      employee_id: null,
      description: `${partner.name} ${number}`,
      ...sides(direction * toCents(draft.total)),
      analytic_distribution: [],
      tax_code: null,
    },
  ];
  lines.push(...revenueLines(draft, direction), ...vatLines(ledger, draft, customer, direction));
  const entry: LedgerEntry = {
    id: entryId,
    journal_id: journal.id,
    number,
    date: draft.invoice_date,
    due_date: draft.due_date,
    reference: draft.reference,
    posted: draft.status === 'posted',
    currency: draft.currency,
    currency_exchange_rate: rate,
    origin: 'invoice',
    invoice_id: invoiceId,
    payment_method_id: draft.payment_method_id,
    start_date: draft.start_date,
    end_date: draft.end_date,
    lines: lines.map((line, i) => ({ id: lineIdOf(entryId, i), ...line })),
    created_on: ctx.now,
    last_updated_on: ctx.now,
  };
  assertBalanced(entry.lines);
  const invoice: LedgerInvoice = {
    id: invoiceId,
    invoice_type: draft.invoice_type,
    invoice_number: number,
    currency: draft.currency,
    currency_exchange_rate: rate,
    untaxed_amount: draft.untaxed_amount,
    tax_amount: draft.tax_amount,
    total: draft.total,
    reference: draft.reference,
    payment_communication: draft.payment_communication,
    customer_memo: draft.customer_memo,
    payment_term_id: draft.payment_term_id,
    withholding_tax: draft.withholding_tax,
    invoice_date: draft.invoice_date,
    due_date: draft.due_date,
    partner_id: partner.id,
    journal_id: journal.id,
    status: draft.status,
    payment_method_id: draft.payment_method_id,
    approval_status: draft.approval_status,
    start_date: draft.start_date,
    end_date: draft.end_date,
    shipping_country: draft.shipping_country,
    lines: draft.lines,
    entry_id: entryId,
    partner_line_id: lineIdOf(entryId, 0),
    created_on: ctx.now,
    last_updated_on: ctx.now,
  };
  return {
    invoice,
    change: {
      invoices: [invoice],
      entries: [entry],
      attachments: attachmentOf(
        ctx,
        'invoice',
        invoiceId,
        draft.pdf,
        draft.pdf_name ?? number.replace(/\W+/g, '-'),
      ),
      counters,
    },
  };
}

/**
 * Debits equal credits, to the cent: ERROR_ENTRY_NOT_BALANCED, or `unbalanced` (a miscellaneous
 * operation's ERROR_OPERATION_NOT_BALANCED).
 */
export function assertBalanced(
  lines: readonly Pick<LedgerEntryLine, 'debit' | 'credit'>[],
  unbalanced: Extract<ServiceErrorName, 'entryNotBalanced' | 'operationNotBalanced'> = 'entryNotBalanced',
): void {
  const debit = sumCents(lines.map((l) => l.debit));
  const credit = sumCents(lines.map((l) => l.credit));
  if (debit !== credit) {
    throw serviceError(
      unbalanced,
      `The entry is not balanced: debit ${fromCents(debit)}, credit ${fromCents(credit)}`,
    );
  }
}
