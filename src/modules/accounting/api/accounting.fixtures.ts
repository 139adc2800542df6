import { z } from '@hono/zod-openapi';
import { errors } from '../../../lib/errors.js';
import { own } from '../../../lib/own.js';
import { assertCovered, RefTable } from '../../../platform/fixtures/context.js';
import { ruleError } from '../../../platform/fixtures/errors.js';
import * as kit from '../../../platform/fixtures/kit.js';
import { profileFor, profileOf } from '../model/accounting.profiles.js';
import type { LedgerRecord } from '../model/accounting.records.js';
import { buildAnalyticAccount, mainAnalyticPlan } from '../model/ledger/analytics.js';
import { buildExpense } from '../model/ledger/documents.js';
import {
  applyChange,
  buildInvoice,
  buildInvoicePayment,
  buildJournalEntry,
  buildMatching,
} from '../model/ledger/posting.js';
import { buildBankAccount, buildBankStatement } from '../model/ledger/treasury.js';
import { foldersOf, ledgerOf, openBookYears } from '../world/ledgers.js';
import { draftOf as analyticDraftOf } from './analytic-accounts.domain.js';
import { AnalyticAccountItemIn } from './analytic-accounts.schemas.js';
import { bankAccountDraftOf, statementDraftOf } from './bank.domain.js';
import { BankAccountItemIn, BankStatementItemIn } from './bank.schemas.js';
import { draftFromGeneric } from './entries.domain.js';
import { GenericJournalEntry, MatchingIn } from './entries.schemas.js';
import { expenseDraftOf } from './expenses.domain.js';
import { ExpenseItemIn } from './expenses.schemas.js';
import { draftFromMono, draftPayment } from './invoices.domain.js';
import { AccountingInvoicePaymentIn, InvoiceItemInMonoAnalyticPlan } from './invoices.schemas.js';
import { createPartner } from './partners.domain.js';
import { ClientItemIn, SupplierItemIn } from './partners.schemas.js';
import { createJournal, createLedgerAccount } from './reference.domain.js';
import { JournalIn, LedgerAccountItemIn } from './reference.schemas.js';

/**
 * The Accounting block of a connection in the fixture document (`connections[].accounting`): one
 * folder's ledger, as POST .../accounting/... writes it. Each record takes the body of the operation
 * that creates it and goes through its builder, after the operation's coverage check.
 */

// ---------------------------------------------------------------------------------------------
// The block's schema.

export const AccountingFixture = z
  .object({
    folder_id: z
      .string()
      .optional()
      .describe(
        'The folder (company) to write in, by id or name: required when the integration holds several',
      ),
    accounts: kit.list(LedgerAccountItemIn, 'POST .../accounting/accounts'),
    journals: kit.list(kit.record(JournalIn), 'POST .../accounting/journal; referred to by ref, id or code'),
    bank_accounts: kit.list(
      kit.record(BankAccountItemIn),
      "POST .../accounting/bank-accounts: a bank journal on its own ledger account; referred to by ref, id or code wherever a journal is (a statement's bank_account_id)",
    ),
    analytic_accounts: kit.list(
      kit.record(AnalyticAccountItemIn).extend({
        analytic_plan: z
          .string()
          .min(1)
          .optional()
          .describe(
            "The plan (POST .../analytic-accounts/multi-analytic-plans/{analytic_plan}), by id or name (Departments); left out, the folder's first active plan (POST .../analytic-accounts)",
          ),
      }),
      "POST .../accounting/analytic-accounts; an invoice line's analytic_account and an analytic distribution take a ref, id or code",
    ),
    clients: kit.list(kit.record(ClientItemIn), 'POST .../accounting/clients'),
    suppliers: kit.list(kit.record(SupplierItemIn), 'POST .../accounting/suppliers'),
    invoices: kit.list(
      kit.record(InvoiceItemInMonoAnalyticPlan),
      'POST .../accounting/invoices; partner_id and journal_id take a ref, tax_code a VAT code id or its code (V21)',
    ),
    journal_entries: kit.list(
      kit.record(GenericJournalEntry),
      'POST .../accounting/journal-entries; journal_id takes a ref or a code, a customer or supplier account a ref',
    ),
    invoice_payments: kit.list(
      kit.withId(AccountingInvoicePaymentIn),
      'POST .../accounting/invoices/payments; payment_method_id takes an id or a name (Bank transfer), items[].invoice_id an invoice ref',
    ),
    expenses: kit.list(
      kit.withId(ExpenseItemIn),
      'POST .../accounting/expenses; employee_id takes an id, reference (EMP-001) or name, lines[].tax_id a VAT code id or its code (A21)',
    ),
    bank_statements: kit.list(
      kit.withId(BankStatementItemIn),
      "POST .../accounting/bank-transactions: a statement of a bank account, one posted entry per transaction; bank_account_id takes a bank account ref, id or code (BNK), a counterpart's id a client or supplier ref (an employee's id, reference or name)",
    ),
    matchings: kit.list(
      MatchingIn,
      'POST .../accounting/matching; entries take invoice and journal entry refs (or ids, line ids), partner_id a client or supplier ref',
    ),
  })
  .strict();

// ---------------------------------------------------------------------------------------------
// Applying the block.

function openLedger(scope: kit.FixtureScope, folderId: string | undefined): LedgerRecord {
  const { context, consumer, integration } = scope;
  const folders = foldersOf(
    context.services.caches.ledgerFolders,
    context.store.world.meta.seed,
    consumer.consumerid,
    integration,
  );
  const at = [...scope.path, 'folder_id'];
  let folder = folders[0];
  const names = folders.map((f) => `${f.id} (${f.name})`).join(', ');
  if (folderId !== undefined) {
    folder = folders.find((f) => f.id === folderId || f.name.toLowerCase() === folderId.toLowerCase());
    if (!folder) {
      ruleError(
        errors.accountingFailure(`The folder '${folderId}' does not exist for this connection: ${names}`),
        null,
        at,
        context.file,
      );
    }
  } else if (integration.features.multiple_folders) {
    ruleError(
      errors.accountingFailure(`folder_id is required: ${integration.name} holds several folders: ${names}`),
      null,
      at,
      context.file,
    );
  }
  if (!folder)
    return ruleError(errors.accountingFailure('The connection reaches no folder'), null, at, context.file);
  const ledger = ledgerOf(context.store, consumer.consumerid, integration, folder);
  // As requireFolder does: the book years of the sandbox clock's years are opened first.
  openBookYears(ledger, context.store.today());
  return ledger;
}

type AccountingBlock = z.output<typeof AccountingFixture>;

/**
 * What the steps of an Accounting block work with: its ledger, its refs, and the lookups of what its
 * records name.
 */
function openAccounting(scope: kit.FixtureScope, block: AccountingBlock) {
  const { context, integration } = scope;
  const ledger = openLedger(scope, block.folder_id);
  const { newRecord, writeAs } = kit.makerOf(scope, ledger);
  const partners = new RefTable(context);
  const journals = new RefTable(context);
  /** Makes a record with one of the API's builders under `id` (the first id of `kind` it mints); books its change. */
  const book = <Made extends { change: Parameters<typeof applyChange>[1] }>(
    kind: string,
    id: string,
    build: (ctx: kit.PinnedWrite) => Made,
  ): Made => {
    const ctx = writeAs(kind, id);
    const made = build(ctx);
    applyChange(ledger, made.change, ctx.now);
    return made;
  };
  /** A journal by ref, id or code. */
  const journalOf = (value: string) => {
    const byRef = journals.get(value);
    if (byRef || own(ledger.journals, value)) return byRef ?? value;
    const code = value.toUpperCase();
    return Object.values(ledger.journals).find((j) => j.code.toUpperCase() === code)?.id ?? value;
  };
  /** A VAT code by id or code. */
  const vatOf = (value: string) => {
    if (own(ledger.vat_codes, value)) return value;
    const code = value.toUpperCase();
    return Object.values(ledger.vat_codes).find((v) => v.code.toUpperCase() === code)?.id ?? value;
  };
  const analytics = new RefTable(context);
  /** An analytic account by ref, id or code (a code of one account only: codes are unique per plan). */
  const analyticOf = <T extends string | null | undefined>(value: T): T | string => {
    if (value === null || value === undefined || own(ledger.analytic_accounts, value)) return value;
    const byRef = analytics.get(value);
    if (byRef) return byRef;
    const code = value.toUpperCase();
    const found = Object.values(ledger.analytic_accounts).filter((a) => a.code.toUpperCase() === code);
    return found.length === 1 ? (found[0]?.id ?? value) : value;
  };
  /** Analytic distributions (of a journal entry's item) naming their accounts by ref, id or code. */
  const distributionsOf = <D extends { analytic_accounts: { analytic_account: string }[] }>(
    list: D[] | null,
  ): D[] | null =>
    list === null
      ? null
      : list.map((d) => ({
          ...d,
          analytic_accounts: d.analytic_accounts.map((a) => ({
            ...a,
            analytic_account: analyticOf(a.analytic_account),
          })),
        }));
  const invoices = new RefTable(context);
  const entries = new RefTable(context);
  /**
   * A payment method by id or name, the ledger's own (Virement) or the one a Belgian ledger gives it
   * (Bank transfer).
   */
  const methodOf = (value: string) => {
    if (own(ledger.payment_methods, value)) return value;
    const drawn = profileFor('BE').words.paymentMethods.findIndex(
      (m) => m.toLowerCase() === value.toLowerCase(),
    );
    const alias = (): string | undefined => profileOf(ledger).words.paymentMethods[drawn];
    return kit.byIdOrName(Object.values(ledger.payment_methods), value, alias)?.id ?? value;
  };
  /** An employee by id, reference (EMP-001) or name. */
  const employeeOf = (value: string) => {
    if (own(ledger.employees, value)) return value;
    const key = value.toLowerCase();
    return (
      Object.values(ledger.employees).find(
        (e) => e.reference?.toLowerCase() === key || e.name.toLowerCase() === key,
      )?.id ?? value
    );
  };
  /** A counterpart of a bank transaction: a client or supplier by ref, an employee by id, reference or name. */
  const counterpartOf = <C extends { counterpart_type?: string | null; id?: string | null }>(
    counterpart: C | null | undefined,
  ) => {
    if (!counterpart?.id) return counterpart;
    const id =
      counterpart.counterpart_type === 'employee'
        ? employeeOf(counterpart.id)
        : partners.resolve(counterpart.id);
    return { ...counterpart, id };
  };
  /** A client or supplier (POST .../clients, .../suppliers). */
  const partner =
    (
      role: 'client' | 'supplier',
    ): kit.Creator<NonNullable<AccountingBlock['clients' | 'suppliers']>[number]> =>
    (record, path, raw) => {
      const { id, body } = newRecord(record, path, ledger.partners, role, partners);
      const create = (ctx: kit.PinnedWrite) => createPartner(ledger, integration, role, body, undefined, ctx);
      return context.at(path, raw, () => create(writeAs('accounting-partner', id)).id);
    };
  return {
    context,
    integration,
    ledger,
    newRecord,
    writeAs,
    partners,
    journals,
    book,
    journalOf,
    vatOf,
    analytics,
    analyticOf,
    distributionsOf,
    invoices,
    entries,
    methodOf,
    employeeOf,
    counterpartOf,
    partner,
  };
}

type Accounting = ReturnType<typeof openAccounting>;

/**
 * The steps of the reference data: accounts, journals, bank accounts, analytic accounts, clients and
 * suppliers.
 */
function referenceSteps(
  a: Accounting,
): Pick<
  kit.Steps<AccountingBlock>,
  'accounts' | 'journals' | 'bank_accounts' | 'analytic_accounts' | 'clients' | 'suppliers'
> {
  const { context, integration, ledger, newRecord, writeAs, journals, book, analytics, partner } = a;
  return {
    accounts: [
      'accounting_create_ledger_account',
      (input, path, raw) => context.at(path, raw, () => createLedgerAccount(ledger, input).number),
    ],
    journals: [
      'accounting_create_journal',
      (record, path, raw) => {
        const { id, body } = newRecord(record, path, ledger.journals, 'journal', journals);
        return context.at(path, raw, () => createJournal(ledger, body, writeAs('accounting-journal', id)).id);
      },
    ],
    // A bank account is a bank journal: its ref names it wherever a journal is named.
    bank_accounts: [
      'accounting_create_bank_account',
      (record, path, raw) => {
        const { id, body } = newRecord(record, path, ledger.journals, 'bank account', journals);
        const build = (ctx: kit.PinnedWrite) => buildBankAccount(ledger, bankAccountDraftOf(body), ctx);
        return context.at(path, raw, () => book('accounting-journal', id, build).journal.id);
      },
    ],
    analytic_accounts: [
      null,
      (record, path, raw) => {
        const { id, body } = newRecord(record, path, ledger.analytic_accounts, 'analytic account', analytics);
        const { analytic_plan: plan, ...input } = body;
        // Two operations: the single-plan one (the folder's first active plan) and the plan's own.
        assertCovered(
          context,
          integration,
          plan === undefined
            ? 'accounting_create_analytic_account'
            : 'accounting_create_analytic_account_multi_plans',
          path,
        );
        const planName = plan?.toLowerCase();
        const planId =
          plan === undefined
            ? undefined
            : (Object.values(ledger.analytic_plans).find(
                (p) => p.id === plan || p.name.toLowerCase() === planName,
              )?.id ?? plan);
        const build = (ctx: kit.PinnedWrite) =>
          buildAnalyticAccount(ledger, planId ?? mainAnalyticPlan(ledger).id, analyticDraftOf(input), ctx);
        return context.at(path, raw, () => book('accounting-analytic-account', id, build).account.id);
      },
    ],
    clients: ['accounting_create_client', partner('client')],
    suppliers: ['accounting_create_supplier', partner('supplier')],
  };
}

/** The steps of the documents: invoices, journal entries, payments, expenses, bank statements, matchings. */
function documentSteps(
  a: Accounting,
): Pick<
  kit.Steps<AccountingBlock>,
  'invoices' | 'journal_entries' | 'invoice_payments' | 'expenses' | 'bank_statements' | 'matchings'
> {
  const { context, ledger, newRecord, partners, book, journalOf, vatOf, analyticOf, distributionsOf } = a;
  const { invoices, entries, methodOf, employeeOf, counterpartOf } = a;
  return {
    invoices: [
      'accounting_create_invoice',
      (record, path) => {
        const { id, body } = newRecord(record, path, ledger.invoices, 'invoice', invoices);
        const input = {
          ...body,
          partner_id: partners.resolve(body.partner_id),
          journal_id: body.journal_id ? journalOf(body.journal_id) : body.journal_id,
          withholding_tax: body.withholding_tax
            ? { ...body.withholding_tax, tax_code: vatOf(body.withholding_tax.tax_code) }
            : body.withholding_tax,
          lines: body.lines.map((line) => ({
            ...line,
            tax_code: vatOf(line.tax_code),
            analytic_account: analyticOf(line.analytic_account),
          })),
        };
        const build = (ctx: kit.PinnedWrite) => buildInvoice(ledger, draftFromMono(ledger, input, {}), ctx);
        return context.at(path, input, () => book('accounting-invoice', id, build).invoice.id);
      },
    ],
    journal_entries: [
      'accounting_create_generic_journal_entry',
      (record, path) => {
        const { id, body } = newRecord(record, path, ledger.entries, 'journal entry', entries);
        const input = {
          ...body,
          journal_id: journalOf(body.journal_id),
          items: body.items.map((item) => ({
            ...item,
            account:
              item.account_type === 'customer_account' || item.account_type === 'supplier_account'
                ? partners.resolve(item.account)
                : item.account,
            tax_code: item.tax_code ? vatOf(item.tax_code) : item.tax_code,
            analytic_distribution: distributionsOf(item.analytic_distribution),
          })),
        };
        const build = (ctx: kit.PinnedWrite) => buildJournalEntry(ledger, draftFromGeneric(input), ctx);
        return context.at(path, input, () => book('accounting-entry', id, build).entry.id);
      },
    ],
    invoice_payments: [
      'accounting_create_invoice_payment',
      (record, path) => {
        const { id, body } = newRecord(record, path, ledger.entries, 'journal entry');
        const input = {
          ...body,
          payment_method_id: methodOf(body.payment_method_id),
          items: body.items.map((item) => ({ ...item, invoice_id: invoices.resolve(item.invoice_id) })),
        };
        const build = (ctx: kit.PinnedWrite) => buildInvoicePayment(ledger, draftPayment(input), ctx);
        return context.at(path, input, () => book('accounting-entry', id, build).entry.id);
      },
    ],
    expenses: [
      'accounting_create_expense',
      (record, path) => {
        const { id, body } = newRecord(record, path, ledger.entries, 'journal entry');
        const input = {
          ...body,
          employee_id: employeeOf(body.employee_id),
          lines: body.lines.map((line) => ({ ...line, tax_id: vatOf(line.tax_id) })),
        };
        const build = (ctx: kit.PinnedWrite) => buildExpense(ledger, expenseDraftOf(input), ctx);
        return context.at(path, input, () => book('accounting-entry', id, build).entry.id);
      },
    ],
    bank_statements: [
      'accounting_create_bank_transactions',
      (record, path) => {
        const { id, body } = newRecord(record, path, ledger.bank_statements, 'bank statement');
        const input = {
          ...body,
          bank_account_id: journalOf(body.bank_account_id),
          items: body.items.map((item) => ({ ...item, counterpart: counterpartOf(item.counterpart) })),
        };
        const build = (ctx: kit.PinnedWrite) => buildBankStatement(ledger, statementDraftOf(input), ctx);
        return context.at(path, input, () => book('accounting-bank-statement', id, build).statement.id);
      },
    ],
    // A matching has no id: the API answers its number, and so does the load.
    matchings: [
      'accounting_match_entries',
      (record, path) => {
        const input = {
          entries: record.entries.map((value) => invoices.get(value) ?? entries.resolve(value)),
          partner_id: partners.resolve(record.partner_id),
        };
        return context.at(path, input, () => {
          const now = context.now();
          const ctx = { mint: (kind: string) => context.services.ids.next(kind), now };
          const { matching, change } = buildMatching(
            ledger,
            input.entries,
            input.partner_id,
            ctx,
            now.slice(0, 10),
          );
          applyChange(ledger, change, ctx.now);
          return matching.number;
        });
      },
    ],
  };
}

/** The Accounting block of a connection in the fixture document. */
export const accountingFixtures = kit.verticalFixtures(AccountingFixture, (scope, block) => {
  const accounting = openAccounting(scope, block);
  return { ...referenceSteps(accounting), ...documentSteps(accounting) };
});
