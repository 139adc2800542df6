import {
  entryHasNoReceivablePayable,
  entryNotLinkedToPartner,
  errors,
  type ServiceErrorName,
  serviceError,
} from '../../../lib/errors.js';
import { uuidFrom } from '../../../lib/ids.js';
import { isStorableKey, own } from '../../../lib/own.js';
import { documentNumber, typeOfNewAccount } from '../accounting.profiles.js';
import type {
  LedgerAccount,
  LedgerAnalyticAccount,
  LedgerAnalyticDistribution,
  LedgerAttachment,
  LedgerBankStatement,
  LedgerEntry,
  LedgerEntryLine,
  LedgerEntryOrigin,
  LedgerInvoice,
  LedgerInvoiceLine,
  LedgerJournal,
  LedgerMatching,
  LedgerPartner,
  LedgerRecord,
} from '../accounting.records.js';
import {
  documentCounterKey,
  entryLine,
  invoiceOpenCents,
  isCustomerType,
  journalSideAccepts,
  matchedCentsByLine,
  openCents,
  partnerSideOf,
  signedCents,
} from './derived.js';
import { fromCents, round2, sumCents, toCents } from './money.js';
import {
  assertAnalyticDistribution,
  assertCurrency,
  assertFinancialPeriod,
  assertJournalCurrency,
  assertPdf,
  exchangeRateOf,
  requireAccount,
  requireEmployee,
  requireJournal,
  requireOpenBookYear,
  requirePartner,
  requirePaymentMethod,
  requirePaymentTerm,
  requireVatCode,
} from './rules.js';

/**
 * Postings: each `build*` function checks a write against the ledger and returns what it would add
 * (a LedgerChange), without touching the ledger; `applyChange` then adds it. Invoices, payments,
 * journal entries and matchings all go through here, the seed included, so seeded data and data
 * written through the API obey the same rules and derive the same way.
 */

const fail = errors.accountingFailure;

export interface PostingContext {
  /** Mints the id of a new record (c.get('ids') in a request, a seeded id source in the seed). */
  mint(kind: string): string;
  /** ISO timestamp of the write. */
  now: string;
}

export interface LedgerChange {
  invoices?: LedgerInvoice[];
  entries?: LedgerEntry[];
  matchings?: LedgerMatching[];
  attachments?: LedgerAttachment[];
  accounts?: LedgerAccount[];
  partners?: LedgerPartner[];
  journals?: LedgerJournal[];
  analytic_accounts?: LedgerAnalyticAccount[];
  bank_statements?: LedgerBankStatement[];
  /** Ids of attachments that the change replaces. */
  removed_attachments?: string[];
  /** New values of counters. */
  counters?: Record<string, number>;
}

/**
 * Adds a checked change to the ledger. A matching changes the entries it settles (their matching
 * numbers) and the invoices of those entries (their payments and status): their last_updated_on
 * moves to `now`, so that updated_after finds them.
 */
export function applyChange(ledger: LedgerRecord, change: LedgerChange, now: string): void {
  for (const account of change.accounts ?? []) ledger.accounts[account.number] = account;
  for (const journal of change.journals ?? []) ledger.journals[journal.id] = journal;
  for (const partner of change.partners ?? []) ledger.partners[partner.id] = partner;
  for (const entry of change.entries ?? []) ledger.entries[entry.id] = entry;
  for (const invoice of change.invoices ?? []) ledger.invoices[invoice.id] = invoice;
  for (const id of change.removed_attachments ?? []) delete ledger.attachments[id];
  for (const attachment of change.attachments ?? []) ledger.attachments[attachment.id] = attachment;
  for (const account of change.analytic_accounts ?? []) ledger.analytic_accounts[account.id] = account;
  for (const statement of change.bank_statements ?? []) {
    ledger.bank_statements ??= {};
    ledger.bank_statements[statement.id] = statement;
  }
  for (const matching of change.matchings ?? []) ledger.matchings[matching.number] = matching;
  Object.assign(ledger.counters, change.counters ?? {});
  const touched = new Set((change.matchings ?? []).flatMap((m) => m.allocations.map((a) => a.entry_id)));
  for (const id of touched) {
    const entry = own(ledger.entries, id);
    if (!entry) continue;
    entry.last_updated_on = now;
    const invoice = entry.invoice_id ? own(ledger.invoices, entry.invoice_id) : undefined;
    if (invoice) invoice.last_updated_on = now;
  }
}

/**
 * Runs a build that could be refused after it minted an id (one that books several entries, or checks
 * more after buildJournalEntry) twice: first with ids that are not minted, so that a refusal anywhere
 * leaves the id counter (kept in the world) untouched, then for real.
 */
export function checkedBuild<T>(ctx: PostingContext, build: (ctx: PostingContext) => T): T {
  let n = 0;
  build({ now: ctx.now, mint: (kind) => uuidFrom('dry-run', kind, ++n) });
  return build(ctx);
}

/** The next `count` free numbers of a journal in a book year, and the counter to store. */
export function mintDocumentNumbers(
  ledger: LedgerRecord,
  journal: LedgerJournal,
  bookYearName: string,
  count: number,
): { numbers: string[]; counters: Record<string, number> } {
  const numbers: string[] = [];
  let counters: Record<string, number> = {};
  for (let i = 0; i < count; i++) {
    const view = { ...ledger, counters: { ...ledger.counters, ...counters } };
    const next = mintDocumentNumber(view, journal, bookYearName);
    numbers.push(next.number);
    counters = next.counters;
  }
  return { numbers, counters };
}

/** Line ids derive from their entry's id, so an entry needs one minted id only. */
export const lineIdOf = (entryId: string, index: number) => uuidFrom('entry-line', entryId, index);

/** Turns signed cents (debit positive) into a debit/credit pair. */
export function sides(cents: number): { debit: number; credit: number } {
  return cents >= 0 ? { debit: fromCents(cents), credit: 0 } : { debit: 0, credit: fromCents(-cents) };
}

/** Numbers taken in a journal (entry numbers are unique per journal). */
function numbersOf(ledger: LedgerRecord, journalId: string): Set<string> {
  const out = new Set<string>();
  for (const entry of Object.values(ledger.entries))
    if (entry.journal_id === journalId) out.add(entry.number);
  return out;
}

/**
 * The next free number of a journal in a book year (CODE/YEAR/0001 in a Belgian folder, see
 * documentNumber), and the counter to store.
 */
export function mintDocumentNumber(
  ledger: LedgerRecord,
  journal: LedgerJournal,
  bookYearName: string,
): { number: string; counters: Record<string, number> } {
  const key = documentCounterKey(journal.id, bookYearName);
  const taken = numbersOf(ledger, journal.id);
  let next = own(ledger.counters, key) ?? 0;
  let number: string;
  do {
    next += 1;
    number = documentNumber(ledger, journal, bookYearName, next);
  } while (taken.has(number));
  return { number, counters: { [key]: next } };
}

/** A number given by the caller is free in its journal (an invoice's: ERROR_INVOICE_NUMBER_ALREADY_USED). */
export function assertNumberFree(
  ledger: LedgerRecord,
  journal: LedgerJournal,
  number: string,
  taken?: Extract<ServiceErrorName, 'invoiceNumberAlreadyUsed'>,
): void {
  if (numbersOf(ledger, journal.id).has(number)) {
    const detail = `The number '${number}' is already used in the journal '${journal.code}'`;
    throw taken ? serviceError(taken, detail) : fail(detail);
  }
}

export function attachmentOf(
  ctx: PostingContext,
  documentType: LedgerAttachment['document_type'],
  documentId: string,
  pdf: string | null | undefined,
  name: string,
): LedgerAttachment[] {
  if (!pdf) return [];
  const filename = name.toLowerCase().endsWith('.pdf') ? name : `${name}.pdf`;
  return [
    {
      id: ctx.mint('accounting-attachment'),
      document_type: documentType,
      document_id: documentId,
      filename,
      base64_string: pdf.replace(/\s+/g, ''),
      created_on: ctx.now,
    },
  ];
}

// ---------------------------------------------------------------------------------------------------
// Invoices

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
export function buildInvoice(
  ledger: LedgerRecord,
  draft: InvoiceDraft,
  ctx: PostingContext,
): { invoice: LedgerInvoice; change: LedgerChange } {
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
  // Revenue or expense lines, regrouped by account, VAT code and analytic split unless asked not to.
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
  // VAT lines, one per VAT code; a reverse-charge code books the VAT both ways.
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

// ---------------------------------------------------------------------------------------------------
// Invoice payments

export interface PaymentDraft {
  date: string;
  payment_method_id: string;
  currency: string;
  currency_exchange_rate: number;
  reference: string | null;
  number: string | null;
  items: { invoice_id: string; amount: number }[];
}

/**
 * A payment of one or more invoices: an entry in the payment method's financial journal (the bank or
 * cash account against each invoice's partner account) and one matching per invoice.
 */
export function buildInvoicePayment(
  ledger: LedgerRecord,
  draft: PaymentDraft,
  ctx: PostingContext,
): { entry: LedgerEntry; change: LedgerChange } {
  const method = requirePaymentMethod(ledger, draft.payment_method_id);
  const journal = requireJournal(ledger, method.journal_id);
  if (!journal.counterpart_account) throw fail(`The journal '${journal.code}' has no bank or cash account`);
  requireAccount(ledger, journal.counterpart_account);
  assertCurrency(draft.currency, null);
  const rate = exchangeRateOf(ledger, draft.currency, draft.currency_exchange_rate);
  assertJournalCurrency(journal, draft.currency);
  const year = requireOpenBookYear(ledger, draft.date);
  if (draft.items.length === 0) throw fail('A payment needs at least one item');
  const matched = matchedCentsByLine(ledger);
  const seen = new Set<string>();
  let side: boolean | undefined;
  const paid = draft.items.map((item, i) => {
    const where = `items[${i}]`;
    const invoice = own(ledger.invoices, item.invoice_id);
    if (!invoice) {
      throw serviceError(
        'accountingInvoiceNotFound',
        `${where}: the invoice '${item.invoice_id}' does not exist`,
      );
    }
    if (seen.has(invoice.id)) throw fail(`${where}: the invoice '${invoice.invoice_number}' is paid twice`);
    seen.add(invoice.id);
    if (invoice.status !== 'posted') {
      throw fail(`${where}: the invoice '${invoice.invoice_number}' is ${invoice.status}, not posted`);
    }
    if (invoice.currency !== draft.currency) {
      throw fail(
        `${where}: the invoice '${invoice.invoice_number}' is in ${invoice.currency}, not ${draft.currency}`,
      );
    }
    const customer = isCustomerType(invoice.invoice_type);
    if (side !== undefined && side !== customer) {
      throw fail('A payment cannot settle client and supplier invoices together');
    }
    side = customer;
    const open = invoiceOpenCents(ledger, invoice, matched);
    const cents = toCents(item.amount);
    if (open === 0) throw fail(`${where}: the invoice '${invoice.invoice_number}' is already paid`);
    if (cents > open) {
      throw fail(
        `${where}: ${item.amount} is more than the open amount ${fromCents(open)} of '${invoice.invoice_number}'`,
      );
    }
    const line = entryLine(ledger, invoice.entry_id, invoice.partner_line_id) as LedgerEntryLine;
    return { invoice, line, cents };
  });
  let number = draft.number;
  let counters: Record<string, number> = {};
  if (number) assertNumberFree(ledger, journal, number);
  else ({ number, counters } = mintDocumentNumber(ledger, journal, year.name));

  const entryId = ctx.mint('accounting-entry');
  const lines: Omit<LedgerEntryLine, 'id'>[] = paid.map(({ invoice, line, cents }) => ({
    account_number: line.account_number,
    partner_id: invoice.partner_id,
    employee_id: null,
    description: `Payment ${invoice.invoice_number}`,
    ...sides(-Math.sign(signedCents(line)) * cents),
    analytic_distribution: [],
    tax_code: null,
  }));
  const net = lines.reduce((total, l) => total + signedCents(l), 0);
  if (net !== 0) {
    lines.push({
      account_number: journal.counterpart_account,
      partner_id: null,
      employee_id: null,
      description: draft.reference ?? `Payment ${number}`,
      ...sides(-net),
      analytic_distribution: [],
      tax_code: null,
    });
  }
  const entry: LedgerEntry = {
    id: entryId,
    journal_id: journal.id,
    number,
    date: draft.date,
    due_date: null,
    reference: draft.reference,
    posted: true,
    currency: draft.currency,
    currency_exchange_rate: rate,
    origin: 'invoice_payment',
    invoice_id: null,
    payment_method_id: method.id,
    start_date: null,
    end_date: null,
    lines: lines.map((line, i) => ({ id: lineIdOf(entryId, i), ...line })),
    created_on: ctx.now,
    last_updated_on: ctx.now,
  };
  const matchings: LedgerMatching[] = [];
  let matchingCounter = ledger.counters.matching ?? 0;
  paid.forEach(({ invoice, line, cents }, i) => {
    matchingCounter += 1;
    matchings.push({
      number: matchingNumber(matchingCounter),
      partner_id: invoice.partner_id,
      date: draft.date,
      allocations: [
        { entry_id: invoice.entry_id, line_id: line.id, amount: fromCents(cents) },
        { entry_id: entryId, line_id: lineIdOf(entryId, i), amount: fromCents(cents) },
      ],
      created_on: ctx.now,
    });
  });
  return {
    entry,
    change: {
      entries: [entry],
      matchings,
      counters: { ...counters, matching: matchingCounter },
    },
  };
}

export const matchingNumber = (n: number) => `M${String(n).padStart(6, '0')}`;

// ---------------------------------------------------------------------------------------------------
// Journal entries

export interface EntryItemDraft {
  account_type: 'customer_account' | 'supplier_account' | 'employee_account' | 'general_account';
  account: string | null;
  force_general_account: string | null;
  description: string | null;
  debit: number;
  credit: number;
  analytic_distribution: LedgerAnalyticDistribution[];
  tax_code: string | null;
  /** A general account to create when `account` does not exist yet. */
  account_info: { account_number: string; account_name: string } | null;
}

export interface EntryDraft {
  journal_id: string;
  number: string;
  reference: string | null;
  due_date: string | null;
  currency: string;
  currency_exchange_rate: number;
  date: string;
  posted: boolean;
  pdf: string | null;
  pdf_name: string | null;
  start_date: string | null;
  end_date: string | null;
  origin: LedgerEntryOrigin;
  items: EntryItemDraft[];
}

/**
 * The documented errors of a line refused by buildJournalEntry depend on the operation that books
 * the entry (its origin): a journal entry, a miscellaneous operation, or an entry of the financial
 * operations (financial entries, bank statements, expenses).
 */
function lineErrors(origin: LedgerEntryOrigin) {
  const journalEntry = origin === 'journal_entry';
  const operation = origin === 'miscellaneous_operation';
  return {
    /** A client or supplier line whose account is not a receivable or payable account. */
    notCollective: (detail: string) =>
      journalEntry
        ? serviceError('collectiveAccountMissing', detail)
        : serviceError(operation ? 'wrongAccountType' : 'accountNumberNotGoodScope', detail),
    /** A client or supplier line that names no client or supplier. */
    noPartner: (detail: string) =>
      journalEntry
        ? serviceError('partnerAccountMissing', detail)
        : operation
          ? serviceError('invalidOperationLineType', detail)
          : fail(detail),
    /**
     * A general line on a receivable or payable account: a journal entry names its client or
     * supplier there; a financial operation cannot use it; a miscellaneous operation may (the
     * official Node SDK books one), the line then names no partner.
     */
    partnerAccount: (detail: string) =>
      journalEntry
        ? serviceError('partnerAccountMissing', detail)
        : operation
          ? null
          : serviceError('accountNumberNotGoodScope', detail),
  };
}

/** Checks a journal entry given line by line and builds it. */
export function buildJournalEntry(
  ledger: LedgerRecord,
  draft: EntryDraft,
  ctx: PostingContext,
): { entry: LedgerEntry; change: LedgerChange } {
  const journalEntry = draft.origin === 'journal_entry';
  const refuse = lineErrors(draft.origin);
  const journal = requireJournal(ledger, draft.journal_id);
  assertCurrency(draft.currency, null, journalEntry ? 'invalidCurrencyFormat' : 'currencyNotFound');
  const rate = exchangeRateOf(ledger, draft.currency, draft.currency_exchange_rate);
  assertJournalCurrency(journal, draft.currency);
  requireOpenBookYear(ledger, draft.date, 'date', draft.posted);
  assertNumberFree(ledger, journal, draft.number);
  // The service takes at least two items in a journal entry (minItems 2); the other operations
  // check their own lines (a miscellaneous operation may have one).
  if (journalEntry && draft.items.length < 2) throw fail('An entry needs at least two items');
  if (draft.pdf) assertPdf(draft.pdf);
  const created = new Map<string, LedgerAccount>();
  const partners = new Set<string>();
  const lines = draft.items.map((item, i): Omit<LedgerEntryLine, 'id'> => {
    const where = `items[${i}]`;
    if (item.debit < 0 || item.credit < 0) {
      throw serviceError('debitCreditNegative', `${where}: debit ${item.debit}, credit ${item.credit}`);
    }
    if (item.debit > 0 && item.credit > 0) {
      throw serviceError('debitCreditBothPositive', `${where}: debit ${item.debit}, credit ${item.credit}`);
    }
    let accountNumber: string;
    let partnerId: string | null = null;
    let employeeId: string | null = null;
    if (item.account_type === 'customer_account' || item.account_type === 'supplier_account') {
      const role = item.account_type === 'customer_account' ? 'client' : 'supplier';
      if (!item.account) throw refuse.noPartner(`${where}: account must hold the id of the ${role}`);
      const partner = requirePartner(ledger, item.account, role);
      partnerId = partner.id;
      partners.add(partner.id);
      accountNumber =
        item.force_general_account ??
        (role === 'client'
          ? (partner.client_account ?? ledger.defaults.receivable_account)
          : (partner.supplier_account ?? ledger.defaults.payable_account));
      requireAccount(ledger, accountNumber);
      if (partnerSideOf(ledger, accountNumber) !== role) {
        throw refuse.notCollective(
          `${where}: the account '${accountNumber}' is not a ${role === 'client' ? 'receivable' : 'payable'} account`,
        );
      }
    } else if (item.account_type === 'employee_account') {
      if (!item.account) throw fail(`${where}: account must hold the id of the employee`);
      const employee = requireEmployee(ledger, item.account);
      employeeId = employee.id;
      accountNumber = item.force_general_account ?? employee.account_number;
      requireAccount(ledger, accountNumber);
    } else {
      accountNumber = item.account ?? item.account_info?.account_number ?? '';
      if (!accountNumber) throw fail(`${where}: account must hold a general account number`);
      if (!own(ledger.accounts, accountNumber) && !created.has(accountNumber)) {
        if (!isStorableKey(accountNumber)) {
          throw fail(`${where}: '${accountNumber}' cannot number an account`);
        }
        if (!item.account_info || item.account_info.account_number !== accountNumber) {
          throw serviceError(
            'accountNumberNotFound',
            `${where}: the account number '${accountNumber}' does not exist in the chart of accounts`,
          );
        }
        created.set(accountNumber, {
          number: accountNumber,
          name: item.account_info.account_name,
          type: typeOfNewAccount(ledger, accountNumber),
          active: true,
          scheme_ids: null,
          accounting_category: null,
        });
      } else if (own(ledger.accounts, accountNumber)) {
        requireAccount(ledger, accountNumber);
      }
      if (partnerSideOf(ledger, accountNumber)) {
        const refusal = refuse.partnerAccount(
          `${where}: '${accountNumber}' is a partner account: use customer_account or supplier_account`,
        );
        if (refusal) throw refusal;
      }
    }
    if (item.tax_code) requireVatCode(ledger, item.tax_code);
    assertAnalyticDistribution(ledger, item.analytic_distribution, where);
    return {
      account_number: accountNumber,
      partner_id: partnerId,
      employee_id: employeeId,
      description: item.description,
      debit: round2(item.debit),
      credit: round2(item.credit),
      analytic_distribution: item.analytic_distribution,
      tax_code: item.tax_code,
    };
  });
  const salesOrPurchases = ['customer_invoice', 'customer_refund', 'supplier_invoice', 'supplier_refund'];
  if (salesOrPurchases.includes(journal.journal_type) && partners.size > 1) {
    throw serviceError(
      'multiplePartnerAccounts',
      `The entry names ${partners.size} clients or suppliers in the ${journal.journal_type} journal '${journal.code}'`,
    );
  }
  assertBalanced(
    lines,
    draft.origin === 'miscellaneous_operation' ? 'operationNotBalanced' : 'entryNotBalanced',
  );
  const entryId = ctx.mint('accounting-entry');
  const entry: LedgerEntry = {
    id: entryId,
    journal_id: journal.id,
    number: draft.number,
    date: draft.date,
    due_date: draft.due_date,
    reference: draft.reference,
    posted: draft.posted,
    currency: draft.currency,
    currency_exchange_rate: rate,
    origin: draft.origin,
    invoice_id: null,
    payment_method_id: null,
    start_date: draft.start_date,
    end_date: draft.end_date,
    lines: lines.map((line, i) => ({ id: lineIdOf(entryId, i), ...line })),
    created_on: ctx.now,
    last_updated_on: ctx.now,
  };
  return {
    entry,
    change: {
      entries: [entry],
      accounts: [...created.values()],
      attachments: attachmentOf(
        ctx,
        'entry',
        entryId,
        draft.pdf,
        draft.pdf_name ?? draft.number.replace(/\W+/g, '-'),
      ),
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Matching

/**
 * Matches open lines of one partner on one receivable or payable account. `ids` are line ids (the
 * ids of outstanding items), or entry or invoice ids (standing for their open lines of the partner). Debit and
 * credit sides settle each other oldest first; when they differ, the larger side stays partly open
 * and `balance` (debit positive) says by how much.
 */
export function buildMatching(
  ledger: LedgerRecord,
  ids: readonly string[],
  partnerId: string,
  ctx: PostingContext,
  date: string,
  counter = ledger.counters.matching ?? 0,
): { matching: LedgerMatching; balance: number; change: LedgerChange } {
  const partner = requirePartner(ledger, partnerId);
  if (ids.length === 0) throw fail('entries: give at least two entries to match');
  const matched = matchedCentsByLine(ledger);
  const picked: { entry: LedgerEntry; line: LedgerEntryLine; open: number }[] = [];
  const seen = new Set<string>();
  for (const id of ids) {
    const entry = own(ledger.entries, id) ?? own(ledger.entries, own(ledger.invoices, id)?.entry_id ?? '');
    const found: { entry: LedgerEntry; line: LedgerEntryLine }[] = [];
    if (entry) {
      const receivable = entry.lines.filter((l) => partnerSideOf(ledger, l.account_number));
      if (receivable.length === 0) throw entryHasNoReceivablePayable(id, partnerId);
      const lines = receivable.filter((l) => l.partner_id === partner.id);
      if (lines.length === 0) throw entryNotLinkedToPartner(id, partnerId);
      const open = lines.filter((l) => openCents(l, matched) !== 0);
      if (open.length === 0) throw serviceError('entryHasInvalidStatus', `Entry '${id}' is already matched`);
      for (const line of open) found.push({ entry, line });
    } else {
      const owner = Object.values(ledger.entries).find((e) => e.lines.some((l) => l.id === id));
      const line = owner?.lines.find((l) => l.id === id);
      if (!owner || !line) throw serviceError('entryNotFound', `Entry '${id}' does not exist`);
      if (!partnerSideOf(ledger, line.account_number)) throw entryHasNoReceivablePayable(id, partnerId);
      if (line.partner_id !== partner.id) throw entryNotLinkedToPartner(id, partnerId);
      if (openCents(line, matched) === 0) {
        throw serviceError('entryHasInvalidStatus', `Entry '${id}' is already matched`);
      }
      found.push({ entry: owner, line });
    }
    for (const { entry: e, line } of found) {
      if (!e.posted) throw serviceError('entryHasInvalidStatus', `Entry '${e.id}' is not posted`);
      if (seen.has(line.id)) continue;
      seen.add(line.id);
      picked.push({ entry: e, line, open: openCents(line, matched) });
    }
  }
  if (picked.length < 2) throw fail('entries: give at least two entries to match');
  const accounts = new Set(picked.map((p) => p.line.account_number));
  if (accounts.size > 1) {
    throw serviceError('multipleGlAccounts', `The entries are on the accounts ${[...accounts].join(', ')}`);
  }
  const currencies = new Set(picked.map((p) => p.entry.currency));
  if (currencies.size > 1) throw fail('The entries are in different currencies');
  const byAge = (a: (typeof picked)[number], b: (typeof picked)[number]) =>
    a.entry.date.localeCompare(b.entry.date) || a.entry.number.localeCompare(b.entry.number);
  const debits = picked.filter((p) => p.open > 0).sort(byAge);
  const credits = picked.filter((p) => p.open < 0).sort(byAge);
  if (debits.length === 0 || credits.length === 0) {
    throw serviceError('amountsNotBalanced', 'The open amounts of the entries are all on the same side');
  }
  const debitTotal = debits.reduce((t, p) => t + p.open, 0);
  const creditTotal = -credits.reduce((t, p) => t + p.open, 0);
  const settled = Math.min(debitTotal, creditTotal);
  const allocations: LedgerMatching['allocations'] = [];
  for (const group of [debits, credits]) {
    let left = settled;
    for (const p of group) {
      if (left === 0) break;
      const take = Math.min(left, Math.abs(p.open));
      allocations.push({ entry_id: p.entry.id, line_id: p.line.id, amount: fromCents(take) });
      left -= take;
    }
  }
  const number = matchingNumber(counter + 1);
  const matching: LedgerMatching = { number, partner_id: partner.id, date, allocations, created_on: ctx.now };
  return {
    matching,
    balance: fromCents(debitTotal - creditTotal),
    change: { matchings: [matching], counters: { matching: counter + 1 } },
  };
}
