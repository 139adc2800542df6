import { own } from '../../../../lib/own.js';
import {
  addDays,
  type ExampleScope,
  type ExampleWorld,
  freeName,
  invoiceAmounts,
  need,
} from '../../../../platform/examples.js';
import { type AccountRole, roleAccount } from '../../model/accounting.profiles.js';
import type { LedgerFolder, LedgerInvoice, LedgerRecord } from '../../model/accounting.records.js';
import { invoiceOpenCents, matchedCentsByLine, openPartnerLines } from '../../model/ledger/derived.js';
import { fromCents } from '../../model/ledger/money.js';
import { foldersOf, ledgerOf } from '../../world/ledgers.js';

/** An accounting scope with the ledger its operations work on. */
export interface Accounting extends ExampleScope {
  folder: LedgerFolder;
  ledger: LedgerRecord;
}

/** The prefilled accounting consumer's connection and the ledger of its first folder. */
export const accountingOf = (w: ExampleWorld): Accounting =>
  w.once('accounting', () => ledgerScopeOf(w, w.scope('accounting', 'Accounting')));

/** The ledger of the first folder of an accounting connection. */
export function ledgerScopeOf(w: ExampleWorld, scope: ExampleScope): Accounting {
  return w.once(`accounting:ledger:${scope.connection.connectionid}`, () => {
    const { store, caches } = w.services;
    const folders = foldersOf(caches.ledgerFolders, w.world.meta.seed, scope.consumerid, scope.integration);
    const folder = need(folders[0], 'a folder');
    return { ...scope, folder, ledger: ledgerOf(store, scope.consumerid, scope.integration, folder) };
  });
}

// ---------------------------------------------------------------------------------------------------
// What the examples read off a ledger.

export const activeClients = (ledger: LedgerRecord) =>
  Object.values(ledger.partners).filter((p) => p.is_client && p.active);
export const activeSuppliers = (ledger: LedgerRecord) =>
  Object.values(ledger.partners).filter((p) => p.is_supplier && p.active);

/** An active VAT code of a side at its usual national rate (the highest), not reverse-charged. */
export function vatCode(ledger: LedgerRecord, side: 'sale' | 'purchase') {
  const codes = Object.values(ledger.vat_codes).filter(
    (v) => v.active && v.type === side && !v.reversed && !v.withholding_tax && v.scope === 'nat',
  );
  return need(codes.sort((a, b) => b.rate - a.rate)[0], `an active ${side} VAT code`);
}

/**
 * The account of a role in the folder's chart (see accounting.profiles.ts) when it is active and of
 * its type; else the first active account of the type, by number.
 */
export function accountOf(ledger: LedgerRecord, type: string, role: AccountRole) {
  const preferred = own(ledger.accounts, roleAccount(ledger, role));
  if (preferred?.active && preferred.type === type) return preferred.number;
  const accounts = Object.values(ledger.accounts)
    .filter((a) => a.active && a.type === type)
    .sort((a, b) => a.number.localeCompare(b.number));
  return need(accounts[0], `an active ${type} account`).number;
}

export const journalOf = (ledger: LedgerRecord, type: string) =>
  need(
    Object.values(ledger.journals).find((j) => j.journal_type === type && !j.blocked),
    `a ${type} journal`,
  );

/** The bank journal: a financial journal whose counterpart account is a bank account. */
export const bankJournal = (ledger: LedgerRecord) =>
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
export function openCustomerInvoices(ledger: LedgerRecord): { invoice: LedgerInvoice; open: number }[] {
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
export const openInvoice = (ledger: LedgerRecord, rank: 0 | 1 | 2) => {
  const open = openCustomerInvoices(ledger);
  return need(open[Math.min(rank, open.length - 1)], 'an open customer invoice');
};

/** Open lines of one client on one account, debit and credit both, which a matching settles. */
export function matchablePair(ledger: LedgerRecord): { partnerId: string; entries: string[] } | undefined {
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
export function accountingInvoice(w: ExampleWorld, analytic: 'single' | 'multi') {
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
export function belgianIban(digits: string): string {
  const check = Number(BigInt(digits) % 97n) || 97;
  const bban = `${digits}${String(check).padStart(2, '0')}`;
  // ISO 13616: the country letters as numbers (B=11, E=14) and 00 after the account, mod 97.
  const remainder = Number(BigInt(`${bban}111400`) % 97n);
  return `BE${String(98 - remainder).padStart(2, '0')}${bban}`;
}

export const clientBody = (w: ExampleWorld, role: 'client' | 'supplier') => {
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
export function freeAnalyticCode(ledger: LedgerRecord, planId: string, candidate: string): string {
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
export function unmatchedInvoice(w: ExampleWorld): { partnerId: string; entries: string[] } {
  const { invoice } = openInvoice(accountingOf(w).ledger, 1);
  return { partnerId: invoice.partner_id, entries: [invoice.id] };
}

/** The examples of the Accounting operations, by operationId. */
