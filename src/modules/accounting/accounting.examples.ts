import { own } from '../../lib/own.js';
import {
  addDays,
  customPatch,
  customPost,
  EXAMPLE_PDF,
  type ExampleScope,
  type ExampleWorld,
  freeName,
  invoiceAmounts,
  need,
  verticalExamples,
} from '../../platform/examples.js';
import { type AccountRole, roleAccount } from './accounting.profiles.js';
import type { LedgerFolder, LedgerInvoice, LedgerRecord } from './accounting.records.js';
import { bookYearOf, invoiceOpenCents, matchedCentsByLine, openPartnerLines } from './ledger/derived.js';
import { foldersOf, ledgerOf } from './ledger/ledgers.js';
import { fromCents, round2 } from './ledger/money.js';
import { mintDocumentNumber } from './ledger/posting.js';

/**
 * The request body examples of the Accounting operations (see platform/examples.ts): read off the
 * first folder's ledger of the consumer /docs prefills for accounting paths, through the ledger
 * functions the routes use (its VAT codes, accounts, journals, partners, open invoices).
 */

/** An accounting scope with the ledger its operations work on. */
interface Accounting extends ExampleScope {
  folder: LedgerFolder;
  ledger: LedgerRecord;
}

/** The prefilled accounting consumer's connection and the ledger of its first folder. */
const accountingOf = (w: ExampleWorld): Accounting =>
  w.once('accounting', () => ledgerScopeOf(w, w.scope('accounting', 'Accounting')));

/** The ledger of the first folder of an accounting connection. */
function ledgerScopeOf(w: ExampleWorld, scope: ExampleScope): Accounting {
  return w.once(`accounting:ledger:${scope.connection.connectionid}`, () => {
    const { store, caches } = w.services;
    const folders = foldersOf(caches.ledgerFolders, w.world.meta.seed, scope.consumerid, scope.integration);
    const folder = need(folders[0], 'a folder');
    return { ...scope, folder, ledger: ledgerOf(store, scope.consumerid, scope.integration, folder) };
  });
}

// ---------------------------------------------------------------------------------------------------
// What the examples read off a ledger.

const activeClients = (ledger: LedgerRecord) =>
  Object.values(ledger.partners).filter((p) => p.is_client && p.active);
const activeSuppliers = (ledger: LedgerRecord) =>
  Object.values(ledger.partners).filter((p) => p.is_supplier && p.active);

/** An active VAT code of a side at its usual national rate (the highest), not reverse-charged. */
function vatCode(ledger: LedgerRecord, side: 'sale' | 'purchase') {
  const codes = Object.values(ledger.vat_codes).filter(
    (v) => v.active && v.type === side && !v.reversed && !v.withholding_tax && v.scope === 'nat',
  );
  return need(codes.sort((a, b) => b.rate - a.rate)[0], `an active ${side} VAT code`);
}

/**
 * The account of a role in the folder's chart (see accounting.profiles.ts) when it is active and of
 * its type; else the first active account of the type, by number.
 */
function accountOf(ledger: LedgerRecord, type: string, role: AccountRole) {
  const preferred = own(ledger.accounts, roleAccount(ledger, role));
  if (preferred?.active && preferred.type === type) return preferred.number;
  const accounts = Object.values(ledger.accounts)
    .filter((a) => a.active && a.type === type)
    .sort((a, b) => a.number.localeCompare(b.number));
  return need(accounts[0], `an active ${type} account`).number;
}

const journalOf = (ledger: LedgerRecord, type: string) =>
  need(
    Object.values(ledger.journals).find((j) => j.journal_type === type && !j.blocked),
    `a ${type} journal`,
  );

/** The bank journal: a financial journal whose counterpart account is a bank account. */
const bankJournal = (ledger: LedgerRecord) =>
  need(
    Object.values(ledger.journals).find(
      (j) =>
        j.journal_type === 'financial_operation' &&
        !j.blocked &&
        j.counterpart_account !== null &&
        own(ledger.accounts, j.counterpart_account)?.type === 'bank',
    ),
    'a bank journal',
  );

/** Posted customer invoices of the folder's currency with something open, oldest first. */
function openCustomerInvoices(ledger: LedgerRecord): { invoice: LedgerInvoice; open: number }[] {
  const matched = matchedCentsByLine(ledger);
  return Object.values(ledger.invoices)
    .filter(
      (i) =>
        i.invoice_type === 'customer_invoice' &&
        i.status === 'posted' &&
        i.currency === ledger.folder.main_currency &&
        own(ledger.partners, i.partner_id)?.active === true,
    )
    .map((invoice) => ({ invoice, open: fromCents(invoiceOpenCents(ledger, invoice, matched)) }))
    .filter(({ open }) => open > 0)
    .sort(
      (a, b) =>
        a.invoice.invoice_date.localeCompare(b.invoice.invoice_date) ||
        a.invoice.invoice_number.localeCompare(b.invoice.invoice_number),
    );
}

/**
 * The open invoices the examples settle, one each, so that running them one after the other works:
 * the invoice payment the oldest, the bank receipt (then matched) the next, the financial entry the
 * one after.
 */
const openInvoice = (ledger: LedgerRecord, rank: 0 | 1 | 2) => {
  const open = openCustomerInvoices(ledger);
  return need(open[Math.min(rank, open.length - 1)], 'an open customer invoice');
};

/** Open lines of one client on one account, debit and credit both, which a matching settles. */
function matchablePair(ledger: LedgerRecord): { partnerId: string; entries: string[] } | undefined {
  const groups = new Map<string, ReturnType<typeof openPartnerLines>>();
  for (const side of ['client', 'supplier'] as const) {
    for (const open of openPartnerLines(ledger, side, false)) {
      const key = `${open.line.partner_id}|${open.line.account_number}|${open.entry.currency}`;
      groups.set(key, [...(groups.get(key) ?? []), open]);
    }
  }
  for (const lines of groups.values()) {
    const debit = lines.find((l) => l.openCents > 0);
    const credit = lines.find((l) => l.openCents < 0);
    if (!debit || !credit) continue;
    // An invoice reads better by its id; any other entry by its own.
    const idOf = (l: (typeof lines)[number]) => l.entry.invoice_id ?? l.entry.id;
    return { partnerId: debit.line.partner_id as string, entries: [idOf(debit), idOf(credit)] };
  }
  return undefined;
}

/** A customer invoice of the folder: its first active client, the sale VAT code, revenue, the sales journal. */
function accountingInvoice(w: ExampleWorld, analytic: 'single' | 'multi') {
  const { ledger } = accountingOf(w);
  const client = need(activeClients(ledger)[0], 'an active client');
  const vat = vatCode(ledger, 'sale');
  const revenue = accountOf(ledger, 'income', 'sales');
  const plans = Object.values(ledger.analytic_plans).filter((p) => p.active);
  const analyticOf = (planId: string | undefined) =>
    Object.values(ledger.analytic_accounts).find((a) => a.active && a.plan_id === planId);
  const amounts = invoiceAmounts(vat.rate, [
    { quantity: 12, unit_price: 85 },
    { quantity: 1, unit_price: 240 },
  ]);
  const lines = amounts.lines.map((line, i) => {
    const base = { line_number: i + 1, ...line, account_number: revenue, tax_code: vat.id };
    if (analytic === 'single') {
      const account = analyticOf(plans[0]?.id);
      return account ? { ...base, analytic_account: account.id } : base;
    }
    const distribution = plans.flatMap((plan) => {
      const account = analyticOf(plan.id);
      return account
        ? [{ analytic_plan: plan.id, analytic_accounts: [{ analytic_account: account.id, percentage: 100 }] }]
        : [];
    });
    return { ...base, analytic_distribution: distribution };
  });
  const term = Object.values(ledger.payment_terms).find((t) => t.days === 30 && !t.end_of_month);
  return {
    invoice_type: 'customer_invoice',
    currency: ledger.folder.main_currency,
    untaxed_amount: amounts.untaxed_amount,
    tax_amount: amounts.tax_amount,
    total: amounts.total,
    reference: 'PO-2026-118',
    invoice_date: w.today,
    due_date: addDays(w.today, 30),
    ...(term ? { payment_term_id: term.id } : {}),
    journal_id: journalOf(ledger, 'customer_invoice').id,
    partner_id: client.id,
    status: 'posted',
    lines,
  };
}

/** A valid Belgian IBAN of a bank account number (ten digits and their mod-97 check). */
function belgianIban(digits: string): string {
  const check = Number(BigInt(digits) % 97n) || 97;
  const bban = `${digits}${String(check).padStart(2, '0')}`;
  // ISO 13616: the country letters as numbers (B=11, E=14) and 00 after the account, mod 97.
  const remainder = Number(BigInt(`${bban}111400`) % 97n);
  return `BE${String(98 - remainder).padStart(2, '0')}${bban}`;
}

const clientBody = (w: ExampleWorld, role: 'client' | 'supplier') => {
  const { ledger, folder } = accountingOf(w);
  const reference = freeName(
    (ref) => Object.values(ledger.partners).some((p) => p.external_reference === ref),
    role === 'client' ? 'CRM-CLIENT-1042' : 'CRM-SUPPLIER-2042',
  );
  const name = role === 'client' ? 'Brasserie du Parc SRL' : 'Papeterie Lambert SA';
  const domain = role === 'client' ? 'brasserieduparc.example' : 'papeterie-lambert.example';
  return {
    external_reference: reference,
    name,
    is_company: true,
    email: `accounting@${domain}`,
    phone: '+32 2 511 42 10',
    website: `https://www.${domain}`,
    vat: role === 'client' ? 'BE0477123456' : 'BE0422654321',
    company_number: role === 'client' ? '0477123456' : '0422654321',
    currency: folder.main_currency,
    language: 'fr',
    addresses: [
      {
        address_type: 'main',
        street: role === 'client' ? 'Rue Royale' : 'Chaussée de Louvain',
        number: role === 'client' ? '180' : '62',
        city: 'Bruxelles',
        postal_code: '1000',
        country: folder.address.country ?? 'BE',
      },
    ],
  };
};

/** A free code in an analytic plan (codes are unique per plan, in any case). */
function freeAnalyticCode(ledger: LedgerRecord, planId: string, candidate: string): string {
  const codes = new Set(
    Object.values(ledger.analytic_accounts)
      .filter((a) => a.plan_id === planId)
      .map((a) => a.code.toUpperCase()),
  );
  return freeName((code) => codes.has(code.toUpperCase()), candidate);
}

/**
 * Without a pair of open lines to match (the seeded ledgers have none: every receipt is matched),
 * the matching names the oldest open invoice the bank receipt example pays: once that statement
 * is imported, the examples name both.
 */
function unmatchedInvoice(w: ExampleWorld): { partnerId: string; entries: string[] } {
  const { invoice } = openInvoice(accountingOf(w).ledger, 1);
  return { partnerId: invoice.partner_id, entries: [invoice.id] };
}

/** The examples of the Accounting operations, by operationId. */
export const accountingExamples = verticalExamples(
  {
    accounting_create_client: {
      path: '/consumers/{consumer_id}/accounting/clients',
      build: (w) => ({ body: clientBody(w, 'client') }),
    },
    accounting_update_client: {
      path: '/consumers/{consumer_id}/accounting/clients/{client_id}',
      build: (w) => {
        const client = need(activeClients(accountingOf(w).ledger)[0], 'an active client');
        return {
          body: { email: 'invoices@client.example', phone: '+32 2 640 11 22', language: 'nl' },
          params: { client_id: client.id },
        };
      },
    },
    accounting_create_supplier: {
      path: '/consumers/{consumer_id}/accounting/suppliers',
      build: (w) => ({ body: clientBody(w, 'supplier') }),
    },
    accounting_update_supplier: {
      path: '/consumers/{consumer_id}/accounting/suppliers/{supplier_id}',
      build: (w) => {
        const supplier = need(activeSuppliers(accountingOf(w).ledger)[0], 'an active supplier');
        return {
          body: { email: 'billing@supplier.example', iban: belgianIban('0016387459') },
          params: { supplier_id: supplier.id },
        };
      },
    },
    accounting_create_invoice: {
      path: '/consumers/{consumer_id}/accounting/invoices',
      build: (w) => ({ body: accountingInvoice(w, 'single') }),
    },
    accounting_create_invoice_multiple_plans: {
      path: '/consumers/{consumer_id}/accounting/invoices/multi-analytic-plans',
      build: (w) => ({ body: accountingInvoice(w, 'multi') }),
    },
    accounting_create_invoices_batch: {
      path: '/consumers/{consumer_id}/accounting/batch/invoices',
      build: (w) => ({ body: { invoices: [accountingInvoice(w, 'single')] } }),
    },
    accounting_create_analytic_account: {
      path: '/consumers/{consumer_id}/accounting/analytic-accounts',
      build: (w) => {
        const { ledger, folder } = accountingOf(w);
        const plan = need(
          Object.values(ledger.analytic_plans).find((p) => p.active),
          'an active analytic plan',
        );
        const code = freeAnalyticCode(ledger, plan.id, 'MKT');
        return { body: { code, name: 'Marketing', currency: folder.main_currency, active: true } };
      },
    },
    accounting_create_analytic_account_multi_plans: {
      path: '/consumers/{consumer_id}/accounting/analytic-accounts/multi-analytic-plans/{analytic_plan}',
      build: (w) => {
        const { ledger, folder } = accountingOf(w);
        const plans = Object.values(ledger.analytic_plans).filter((p) => p.active);
        const plan = need(plans[1] ?? plans[0], 'an active analytic plan');
        const code = freeAnalyticCode(ledger, plan.id, 'PRJ-200');
        return {
          body: { code, name: 'Website redesign', currency: folder.main_currency, active: true },
          params: { analytic_plan: plan.id },
        };
      },
    },
    accounting_update_analytic_account: {
      path: '/consumers/{consumer_id}/accounting/analytic-accounts/{analytic_account_id}',
      build: (w) => {
        const { ledger } = accountingOf(w);
        const plan = Object.values(ledger.analytic_plans).find((p) => p.active);
        const account = need(
          Object.values(ledger.analytic_accounts).find((a) => a.active && a.plan_id === plan?.id),
          'an analytic account',
        );
        return {
          body: { name: `${account.name} (Belgium)` },
          params: { analytic_account_id: account.id },
        };
      },
    },
    accounting_update_analytic_account_multi_plans: {
      path: '/consumers/{consumer_id}/accounting/analytic-accounts/{analytic_account_id}/multi-analytic-plans/{analytic_plan}',
      build: (w) => {
        const { ledger } = accountingOf(w);
        const plans = Object.values(ledger.analytic_plans).filter((p) => p.active);
        const plan = need(plans[1] ?? plans[0], 'an active analytic plan');
        const account = need(
          Object.values(ledger.analytic_accounts).find((a) => a.active && a.plan_id === plan.id),
          'an analytic account',
        );
        return {
          body: { name: `${account.name} (phase 2)`, active: true },
          params: { analytic_account_id: account.id, analytic_plan: plan.id },
        };
      },
    },
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
  },
  {
    scope: accountingOf,
    // A sync of tax rates to VAT codes maps to the VAT codes of the consumer's first folder.
    saleVatCodes: (w, consumerid) => {
      const { ledger } = ledgerScopeOf(w, w.scopeOf(consumerid, 'Accounting'));
      return (rate) =>
        Object.values(ledger.vat_codes).find(
          (v) => v.active && v.type === 'sale' && v.scope === 'nat' && v.rate === rate,
        )?.code;
    },
  },
);
