import { own } from '../../../../lib/own.js';
import {
  customPatch,
  customPost,
  type ExampleSpec,
  freeName,
  invoiceAmounts,
  need,
} from '../../../../platform/examples.js';
import {
  accountingOf,
  accountOf,
  activeSuppliers,
  bankJournal,
  belgianIban,
  openInvoice,
  vatCode,
} from './ledger-reads.js';

/** The examples of the balances, bank, financial entries, expenses, ledger accounts and custom operations. */
export const treasuryExamples: Record<string, ExampleSpec> = {
  accounting_get_accounts_balances: {
    path: '/consumers/{consumer_id}/accounting/chart-of-accounts/balance',
    build: (w) => {
      const { ledger } = accountingOf(w);
      const month = w.today.slice(0, 7).replace('-', '');
      return {
        body: {
          accounts: [
            ledger.defaults.receivable_account,
            ledger.defaults.payable_account,
            accountOf(ledger, 'income', 'sales'),
          ],
          start: `${month.slice(0, 4)}01`,
          end: month,
        },
      };
    },
  },
  accounting_create_bank_account: {
    path: '/consumers/{consumer_id}/accounting/bank-accounts',
    build: (w) => {
      const { ledger } = accountingOf(w);
      const codes = new Set(Object.values(ledger.journals).map((j) => j.code.toUpperCase()));
      const ibans = new Set(
        Object.values(ledger.journals).map((j) => j.iban?.replace(/\s+/g, '').toUpperCase()),
      );
      let account = 3_630_000_042;
      while (ibans.has(belgianIban(String(account)))) account += 1;
      return {
        body: {
          code: freeName((c) => codes.has(c), 'BNK2'),
          currency: ledger.folder.main_currency,
          account_name: 'Savings account',
          iban: belgianIban(String(account)),
          bank_name: 'ING Belgium',
        },
      };
    },
  },
  accounting_create_bank_transactions: {
    path: '/consumers/{consumer_id}/accounting/bank-transactions',
    build: (w) => {
      const { ledger } = accountingOf(w);
      const bank = bankJournal(ledger);
      const { invoice, open } = openInvoice(ledger, 1);
      const client = need(own(ledger.partners, invoice.partner_id), 'the client');
      const statements = Object.values(ledger.bank_statements ?? {});
      const statement = freeName(
        (id) => statements.some((s) => s.external_bank_statement_id === id),
        `STMT-${w.today}`,
      );
      return {
        body: {
          bank_statement_date: w.today,
          bank_account_id: bank.id,
          currency: bank.currency ?? ledger.folder.main_currency,
          external_bank_statement_id: statement,
          items: [
            {
              external_transaction_id: `${statement}-1`,
              amount: open,
              counterpart: { counterpart_type: 'customer', id: client.id, name: client.name },
            },
            {
              external_transaction_id: `${statement}-2`,
              amount: -12.5,
              general_ledger_account: accountOf(ledger, 'other_expense', 'interest_charges'),
            },
          ],
        },
      };
    },
  },
  accounting_create_financial_entries: {
    path: '/consumers/{consumer_id}/accounting/financial-entries',
    build: (w) => {
      const { ledger } = accountingOf(w);
      const { invoice, open } = openInvoice(ledger, 2);
      return {
        body: {
          date: w.today,
          journal_id: bankJournal(ledger).id,
          currency: invoice.currency,
          reference: `Transfer ${invoice.invoice_number}`,
          items: [
            {
              account_type: 'customer_account',
              account: invoice.partner_id,
              amount: open,
              automated_matching_number: invoice.invoice_number,
            },
          ],
        },
      };
    },
  },
  accounting_create_financial_entry: {
    path: '/consumers/{consumer_id}/accounting/financial-entry',
    build: (w) => {
      const { ledger } = accountingOf(w);
      const supplier = need(activeSuppliers(ledger)[0], 'an active supplier');
      return {
        body: {
          date: w.today,
          journal_id: bankJournal(ledger).id,
          currency: ledger.folder.main_currency,
          reference: 'Supplier transfer',
          items: [
            {
              type: 'supplier_account',
              account_number: supplier.supplier_account ?? ledger.defaults.payable_account,
              partner_id: supplier.id,
              amount: -350,
            },
          ],
        },
      };
    },
  },
  accounting_create_expense: {
    path: '/consumers/{consumer_id}/accounting/expenses',
    build: (w) => {
      const { ledger } = accountingOf(w);
      const employee = need(
        Object.values(ledger.employees).find((e) => e.active),
        'an active employee',
      );
      const vat = vatCode(ledger, 'purchase');
      const amounts = invoiceAmounts(vat.rate, [
        { quantity: 1, unit_price: 64.2 },
        { quantity: 1, unit_price: 18.5 },
      ]);
      return {
        body: {
          employee_id: employee.id,
          currency: ledger.folder.main_currency,
          date: w.today,
          reference: 'Client visit',
          untaxed_amount: amounts.untaxed_amount,
          tax_amount: amounts.tax_amount,
          total: amounts.total,
          lines: amounts.lines.map((line) => ({
            untaxed_amount: line.untaxed_amount,
            tax_rate: line.tax_rate,
            tax_amount: line.tax_amount,
            total: line.total,
            account_number: accountOf(ledger, 'expense', 'services'),
            tax_id: vat.id,
          })),
        },
      };
    },
  },
  accounting_create_ledger_account: {
    path: '/consumers/{consumer_id}/accounting/accounts',
    build: (w) => {
      const { ledger } = accountingOf(w);
      let number = 613_100;
      while (own(ledger.accounts, String(number))) number += 100;
      return { body: { number: String(number), name: 'Software subscriptions', type: 'expense' } };
    },
  },
  accounting_custom_post: {
    path: '/consumers/{consumer_id}/accounting/custom/{custom_path}',
    build: (w) =>
      customPost(w, accountingOf(w).connection, 'exports', 'EXPORT', {
        format: 'FEC',
        date_from: `${w.today.slice(0, 4)}-01-01`,
        date_to: w.today,
      }),
  },
  accounting_custom_patch: {
    path: '/consumers/{consumer_id}/accounting/custom/{custom_path}',
    build: (w) => customPatch(w, accountingOf(w).connection, 'exports', 'EXPORT', { status: 'sent' }),
  },
};
