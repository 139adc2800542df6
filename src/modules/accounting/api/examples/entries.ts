import { own } from '../../../../lib/own.js';
import { EXAMPLE_PDF, type ExampleSpec, freeName, need } from '../../../../platform/examples.js';
import { bookYearOf } from '../../model/ledger/derived.js';
import { round2 } from '../../model/ledger/money.js';
import { mintDocumentNumber } from '../../model/ledger/posting.js';
import {
  accountingOf,
  accountOf,
  activeSuppliers,
  journalOf,
  matchablePair,
  openInvoice,
  unmatchedInvoice,
  vatCode,
} from './ledger-reads.js';

/**
 * The examples of the journal entries, payments, journals, miscellaneous operations, matchings and
 * attachments operations.
 */
export const entryExamples: Record<string, ExampleSpec> = {
  accounting_create_generic_journal_entry: {
    path: '/consumers/{consumer_id}/accounting/journal-entries',
    build: (w) => {
      const { ledger } = accountingOf(w);
      const journal = journalOf(ledger, 'miscellaneous_operation');
      const year = need(bookYearOf(ledger, w.today), 'a book year');
      const supplier = need(activeSuppliers(ledger)[0], 'an active supplier');
      const vat = vatCode(ledger, 'purchase');
      const untaxed = 1250;
      const tax = round2((untaxed * vat.rate) / 100);
      return {
        body: {
          journal_id: journal.id,
          number: mintDocumentNumber(ledger, journal, year.name).number,
          reference: 'Rent Q1',
          currency: ledger.folder.main_currency,
          date: w.today,
          posted: true,
          items: [
            {
              account_type: 'general_account',
              account: accountOf(ledger, 'expense', 'services'),
              debit: untaxed,
              credit: 0,
              tax_code: vat.id,
            },
            {
              account_type: 'general_account',
              account: accountOf(ledger, 'vat', 'vat_deductible'),
              debit: tax,
              credit: 0,
            },
            {
              account_type: 'supplier_account',
              account: supplier.id,
              debit: 0,
              credit: round2(untaxed + tax),
            },
          ],
        },
      };
    },
  },
  accounting_create_journal_entry: {
    path: '/consumers/{consumer_id}/accounting/journal/entries',
    build: (w) => {
      const { ledger } = accountingOf(w);
      const journal = journalOf(ledger, 'miscellaneous_operation');
      const year = need(bookYearOf(ledger, w.today), 'a book year');
      const currency = ledger.folder.main_currency;
      return {
        body: {
          journal_id: journal.id,
          name: mintDocumentNumber(ledger, journal, year.name).number,
          reference: 'Accrued electricity',
          date: w.today,
          items: [
            { account_number: accountOf(ledger, 'expense', 'services'), debit: 320, credit: 0, currency },
            { account_number: accountOf(ledger, 'other', 'suspense'), debit: 0, credit: 320, currency },
          ],
        },
      };
    },
  },
  accounting_create_invoice_payment: {
    path: '/consumers/{consumer_id}/accounting/invoices/payments',
    build: (w) => {
      const { ledger } = accountingOf(w);
      const { invoice, open } = openInvoice(ledger, 0);
      const method = need(
        Object.values(ledger.payment_methods).find(
          (m) =>
            own(ledger.accounts, own(ledger.journals, m.journal_id)?.counterpart_account)?.type === 'bank',
        ) ?? Object.values(ledger.payment_methods)[0],
        'a payment method',
      );
      return {
        body: {
          date: w.today,
          payment_method_id: method.id,
          currency: invoice.currency,
          reference: `Payment ${invoice.invoice_number}`,
          items: [{ invoice_id: invoice.id, amount: open }],
        },
      };
    },
  },
  accounting_create_journal: {
    path: '/consumers/{consumer_id}/accounting/journal',
    build: (w) => {
      const { ledger } = accountingOf(w);
      const codes = new Set(Object.values(ledger.journals).map((j) => j.code.toUpperCase()));
      return {
        body: {
          code: freeName((c) => codes.has(c), 'VWEB'),
          name: 'Web shop sales',
          journal_type: 'customer_invoice',
        },
      };
    },
  },
  accounting_create_miscellaneous_operation: {
    path: '/consumers/{consumer_id}/accounting/miscellaneous-operation',
    build: (w) => {
      const { ledger } = accountingOf(w);
      // Amounts are credits when positive, debits when negative, and add up to zero.
      return {
        body: {
          currency: ledger.folder.main_currency,
          operation_date: w.today,
          journal_id: journalOf(ledger, 'miscellaneous_operation').id,
          status: 'posted',
          lines: [
            {
              line_number: 1,
              type: 'general_account',
              account_number: accountOf(ledger, 'expense', 'services'),
              amount: -480,
            },
            {
              line_number: 2,
              type: 'general_account',
              account_number: accountOf(ledger, 'other', 'suspense'),
              amount: 480,
            },
          ],
        },
      };
    },
  },
  accounting_match_entries: {
    path: '/consumers/{consumer_id}/accounting/matching',
    build: (w) => {
      const pair = matchablePair(accountingOf(w).ledger) ?? unmatchedInvoice(w);
      return { body: { entries: pair.entries, partner_id: pair.partnerId } };
    },
  },
  accounting_match_entries_multiple: {
    path: '/consumers/{consumer_id}/accounting/matching-multiple',
    build: (w) => {
      const pair = matchablePair(accountingOf(w).ledger) ?? unmatchedInvoice(w);
      return { body: { matchings: [{ entries: pair.entries, partner_id: pair.partnerId }] } };
    },
  },
  accounting_add_attachment: {
    path: '/consumers/{consumer_id}/accounting/invoices/pdf/{invoice_id}',
    build: (w) => {
      const { ledger } = accountingOf(w);
      const attached = new Set(
        Object.values(ledger.attachments)
          .filter((a) => a.document_type === 'invoice')
          .map((a) => a.document_id),
      );
      const invoice = need(
        Object.values(ledger.invoices)
          .filter((i) => !attached.has(i.id) && i.status !== 'cancelled')
          .sort(
            (a, b) =>
              b.invoice_date.localeCompare(a.invoice_date) ||
              b.invoice_number.localeCompare(a.invoice_number),
          )[0],
        'an invoice without a PDF',
      );
      return {
        body: { base64_string: EXAMPLE_PDF, name: `${invoice.invoice_number.replace(/\W+/g, '-')}.pdf` },
        params: { invoice_id: invoice.id },
      };
    },
  },
  accounting_add_document_attachment: {
    path: '/consumers/{consumer_id}/accounting/attachments',
    build: (w) => {
      const { ledger } = accountingOf(w);
      const attached = new Set(Object.values(ledger.attachments).map((a) => a.document_id));
      const entry = need(
        Object.values(ledger.entries)
          .filter((e) => e.posted && e.invoice_id === null && !attached.has(e.id))
          .sort((a, b) => b.date.localeCompare(a.date) || b.number.localeCompare(a.number))[0],
        'an entry without a document',
      );
      return {
        body: { base64_string: EXAMPLE_PDF, name: 'receipt.pdf', type: 'entry', document_id: entry.id },
      };
    },
  },
};
