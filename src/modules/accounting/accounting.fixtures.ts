import { z } from '@hono/zod-openapi';
import { errors } from '../../lib/errors.js';
import { own } from '../../lib/own.js';
import { assertCovered, pinnedIds, RefTable } from '../../platform/fixtures/context.js';
import { type PathPart, ruleError } from '../../platform/fixtures/errors.js';
import {
  each,
  type FixtureScope,
  freshId,
  record,
  split,
  type VerticalFixtures,
  type VerticalRecords,
  withId,
} from '../../platform/fixtures/kit.js';
import type { LedgerRecord } from './accounting.records.js';
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
import { buildAnalyticAccount, mainAnalyticPlan } from './ledger/analytics.js';
import { buildExpense } from './ledger/documents.js';
import { foldersOf, ledgerOf, openBookYears } from './ledger/ledgers.js';
import {
  applyChange,
  buildInvoice,
  buildInvoicePayment,
  buildJournalEntry,
  buildMatching,
} from './ledger/posting.js';
import { buildBankAccount, buildBankStatement } from './ledger/treasury.js';
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
    accounts: z.array(LedgerAccountItemIn).optional().describe('POST .../accounting/accounts'),
    journals: z
      .array(record(JournalIn))
      .optional()
      .describe('POST .../accounting/journal; referred to by ref, id or code'),
    bank_accounts: z
      .array(record(BankAccountItemIn))
      .optional()
      .describe(
        "POST .../accounting/bank-accounts: a bank journal on its own ledger account; referred to by ref, id or code wherever a journal is (a statement's bank_account_id)",
      ),
    analytic_accounts: z
      .array(
        record(AnalyticAccountItemIn).extend({
          analytic_plan: z
            .string()
            .min(1)
            .optional()
            .describe(
              "The plan (POST .../analytic-accounts/multi-analytic-plans/{analytic_plan}), by id or name (Departments); left out, the folder's first active plan (POST .../analytic-accounts)",
            ),
        }),
      )
      .optional()
      .describe(
        "POST .../accounting/analytic-accounts; an invoice line's analytic_account and an analytic distribution take a ref, id or code",
      ),
    clients: z.array(record(ClientItemIn)).optional().describe('POST .../accounting/clients'),
    suppliers: z.array(record(SupplierItemIn)).optional().describe('POST .../accounting/suppliers'),
    invoices: z
      .array(record(InvoiceItemInMonoAnalyticPlan))
      .optional()
      .describe(
        'POST .../accounting/invoices; partner_id and journal_id take a ref, tax_code a VAT code id or its code (V21)',
      ),
    journal_entries: z
      .array(record(GenericJournalEntry))
      .optional()
      .describe(
        'POST .../accounting/journal-entries; journal_id takes a ref or a code, a customer or supplier account a ref',
      ),
    invoice_payments: z
      .array(withId(AccountingInvoicePaymentIn))
      .optional()
      .describe(
        'POST .../accounting/invoices/payments; payment_method_id takes an id or a name (Bank transfer), items[].invoice_id an invoice ref',
      ),
    expenses: z
      .array(withId(ExpenseItemIn))
      .optional()
      .describe(
        'POST .../accounting/expenses; employee_id takes an id, reference (EMP-001) or name, lines[].tax_id a VAT code id or its code (A21)',
      ),
    bank_statements: z
      .array(withId(BankStatementItemIn))
      .optional()
      .describe(
        "POST .../accounting/bank-transactions: a statement of a bank account, one posted entry per transaction; bank_account_id takes a bank account ref, id or code (BNK), a counterpart's id a client or supplier ref (an employee's id, reference or name)",
      ),
    matchings: z
      .array(MatchingIn)
      .optional()
      .describe(
        'POST .../accounting/matching; entries take invoice and journal entry refs (or ids, line ids), partner_id a client or supplier ref',
      ),
  })
  .strict();

// ---------------------------------------------------------------------------------------------
// Applying the block.

function openLedger(scope: FixtureScope, folderId: string | undefined): LedgerRecord {
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

function applyAccounting(scope: FixtureScope, block: z.output<typeof AccountingFixture>): VerticalRecords {
  const { context, integration } = scope;
  const ledger = openLedger(scope, block.folder_id);
  const partners = new RefTable(context);
  const journals = new RefTable(context);
  const posting = (kind: string, id: string) => {
    const ids = pinnedIds(context.services.ids, kind, id);
    return { mint: (asked: string) => ids.next(asked), now: context.now() };
  };
  /** The id of a new journal entry (given or derived), refused when an entry holds it already. */
  const newEntryId = (given: string | undefined, path: PathPart[]): string =>
    freshId(context, given, path, ledger.entries, 'journal entry');
  /** Books an entry the API's builder made (a journal entry, a payment, an expense) under `id`. */
  const bookEntry = (
    id: string,
    build: (ctx: ReturnType<typeof posting>) => {
      entry: { id: string };
      change: Parameters<typeof applyChange>[1];
    },
  ) => {
    const ctx = posting('accounting-entry', id);
    const { entry, change } = build(ctx);
    applyChange(ledger, change, ctx.now);
    return entry.id;
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

  const out: VerticalRecords = {};
  out.accounts = each(
    scope,
    'accounts',
    block.accounts,
    'accounting_create_ledger_account',
    (input, path, raw) => context.at(path, raw, () => createLedgerAccount(ledger, input).number),
  );
  out.journals = each(scope, 'journals', block.journals, 'accounting_create_journal', (record, path, raw) => {
    const { id: given, ref, body } = split(record);
    const id = freshId(context, given, path, ledger.journals, 'journal');
    journals.declare(ref, id, path);
    return context.at(path, raw, () => createJournal(ledger, body, posting('accounting-journal', id)).id);
  });
  // A bank account is a bank journal: its ref names it wherever a journal is named.
  out.bank_accounts = each(
    scope,
    'bank_accounts',
    block.bank_accounts,
    'accounting_create_bank_account',
    (record, path, raw) => {
      const { id: given, ref, body } = split(record);
      const id = freshId(context, given, path, ledger.journals, 'bank account');
      journals.declare(ref, id, path);
      return context.at(path, raw, () => {
        const ctx = posting('accounting-journal', id);
        const { journal, change } = buildBankAccount(ledger, bankAccountDraftOf(body), ctx);
        applyChange(ledger, change, ctx.now);
        return journal.id;
      });
    },
  );
  out.analytic_accounts = each(
    scope,
    'analytic_accounts',
    block.analytic_accounts,
    null,
    (record, path, raw) => {
      const { id: given, ref, body } = split(record);
      const { analytic_plan: plan, ...input } = body;
      const id = freshId(context, given, path, ledger.analytic_accounts, 'analytic account');
      analytics.declare(ref, id, path);
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
      return context.at(path, raw, () => {
        const ctx = posting('accounting-analytic-account', id);
        const target = planId ?? mainAnalyticPlan(ledger).id;
        const { account, change } = buildAnalyticAccount(ledger, target, analyticDraftOf(input), ctx);
        applyChange(ledger, change, ctx.now);
        return account.id;
      });
    },
  );
  for (const role of ['client', 'supplier'] as const) {
    const kind = `${role}s` as const;
    out[kind] = each(scope, kind, block[kind], `accounting_create_${role}`, (record, path, raw) => {
      const { id: given, ref, body } = split(record);
      const id = freshId(context, given, path, ledger.partners, role);
      partners.declare(ref, id, path);
      return context.at(
        path,
        raw,
        () => createPartner(ledger, integration, role, body, undefined, posting('accounting-partner', id)).id,
      );
    });
  }
  out.invoices = each(scope, 'invoices', block.invoices, 'accounting_create_invoice', (record, path) => {
    const { id: given, ref, body } = split(record);
    const id = freshId(context, given, path, ledger.invoices, 'invoice');
    invoices.declare(ref, id, path);
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
    return context.at(path, input, () => {
      const ctx = posting('accounting-invoice', id);
      const { invoice, change } = buildInvoice(ledger, draftFromMono(ledger, input, {}), ctx);
      applyChange(ledger, change, ctx.now);
      return invoice.id;
    });
  });
  out.journal_entries = each(
    scope,
    'journal_entries',
    block.journal_entries,
    'accounting_create_generic_journal_entry',
    (record, path) => {
      const { id: given, ref, body } = split(record);
      const id = newEntryId(given, path);
      entries.declare(ref, id, path);
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
      return context.at(path, input, () =>
        bookEntry(id, (ctx) => buildJournalEntry(ledger, draftFromGeneric(input), ctx)),
      );
    },
  );
  /** A payment method by id or name (Bank transfer). */
  const methodOf = (value: string) => {
    if (own(ledger.payment_methods, value)) return value;
    const name = value.toLowerCase();
    return Object.values(ledger.payment_methods).find((m) => m.name.toLowerCase() === name)?.id ?? value;
  };
  out.invoice_payments = each(
    scope,
    'invoice_payments',
    block.invoice_payments,
    'accounting_create_invoice_payment',
    (record, path) => {
      const { id: given, body } = split(record);
      const id = newEntryId(given, path);
      const input = {
        ...body,
        payment_method_id: methodOf(body.payment_method_id),
        items: body.items.map((item) => ({ ...item, invoice_id: invoices.resolve(item.invoice_id) })),
      };
      return context.at(path, input, () =>
        bookEntry(id, (ctx) => buildInvoicePayment(ledger, draftPayment(input), ctx)),
      );
    },
  );
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
  out.expenses = each(scope, 'expenses', block.expenses, 'accounting_create_expense', (record, path) => {
    const { id: given, body } = split(record);
    const id = newEntryId(given, path);
    const input = {
      ...body,
      employee_id: employeeOf(body.employee_id),
      lines: body.lines.map((line) => ({ ...line, tax_id: vatOf(line.tax_id) })),
    };
    return context.at(path, input, () =>
      bookEntry(id, (ctx) => buildExpense(ledger, expenseDraftOf(input), ctx)),
    );
  });
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
  out.bank_statements = each(
    scope,
    'bank_statements',
    block.bank_statements,
    'accounting_create_bank_transactions',
    (record, path) => {
      const { id: given, body } = split(record);
      const id = freshId(context, given, path, ledger.bank_statements, 'bank statement');
      const input = {
        ...body,
        bank_account_id: journalOf(body.bank_account_id),
        items: body.items.map((item) => ({ ...item, counterpart: counterpartOf(item.counterpart) })),
      };
      return context.at(path, input, () => {
        const ctx = posting('accounting-bank-statement', id);
        const { statement, change } = buildBankStatement(ledger, statementDraftOf(input), ctx);
        applyChange(ledger, change, ctx.now);
        return statement.id;
      });
    },
  );
  // A matching has no id: the API answers its number, and so does the load.
  out.matchings = each(scope, 'matchings', block.matchings, 'accounting_match_entries', (record, path) => {
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
  });
  return out;
}

/** The Accounting block of a connection in the fixture document. */
export const accountingFixtures: VerticalFixtures<typeof AccountingFixture> = {
  schema: AccountingFixture,
  apply: applyAccounting,
};
