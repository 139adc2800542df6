import { errors, serviceError } from '../../../../lib/errors.js';
import { own } from '../../../../lib/own.js';
import type { LedgerEntry, LedgerEntryLine, LedgerMatching, LedgerRecord } from '../accounting.records.js';
import { entryLine, invoiceOpenCents, isCustomerType, matchedCentsByLine, signedCents } from './derived.js';
import { fromCents, toCents } from './money.js';
import {
  assertNumberFree,
  type LedgerChange,
  lineIdOf,
  mintDocumentNumber,
  type PostingContext,
  sides,
} from './posting-core.js';
import {
  assertCurrency,
  assertJournalCurrency,
  exchangeRateOf,
  requireAccount,
  requireJournal,
  requireOpenBookYear,
  requirePaymentMethod,
} from './rules.js';

const fail = errors.accountingFailure;

/** Invoice payments: the draft and its posting, matched against the invoice. */

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
 * The invoices a payment's items pay, each checked: posted, in its currency, open enough, all on
 * one side.
 */
function paidItems(ledger: LedgerRecord, draft: PaymentDraft) {
  const matched = matchedCentsByLine(ledger);
  const seen = new Set<string>();
  let side: boolean | undefined;
  return draft.items.map((item, i) => {
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
  const paid = paidItems(ledger, draft);
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
