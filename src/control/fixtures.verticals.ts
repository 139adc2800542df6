import type { z } from '@hono/zod-openapi';
import { isCountryCode } from '../lib/country-codes.js';
import { errors, serviceError } from '../lib/errors.js';
import { uuidFrom } from '../lib/ids.js';
import { own } from '../lib/own.js';
import type { LedgerRecord } from '../modules/accounting/accounting.records.js';
import { draftOf as analyticDraftOf } from '../modules/accounting/analytic-accounts.domain.js';
import { bankAccountDraftOf, statementDraftOf } from '../modules/accounting/bank.domain.js';
import { draftFromGeneric } from '../modules/accounting/entries.domain.js';
import { expenseDraftOf } from '../modules/accounting/expenses.domain.js';
import { draftFromMono, draftPayment } from '../modules/accounting/invoices.domain.js';
import { buildAnalyticAccount, mainAnalyticPlan } from '../modules/accounting/ledger/analytics.js';
import { buildExpense } from '../modules/accounting/ledger/documents.js';
import { foldersOf, ledgerOf, openBookYears } from '../modules/accounting/ledger/ledgers.js';
import {
  applyChange,
  buildInvoice,
  buildInvoicePayment,
  buildJournalEntry,
  buildMatching,
} from '../modules/accounting/ledger/posting.js';
import { buildBankAccount, buildBankStatement } from '../modules/accounting/ledger/treasury.js';
import { createPartner } from '../modules/accounting/partners.domain.js';
import { createJournal, createLedgerAccount } from '../modules/accounting/reference.domain.js';
import { bankingDatasetOf } from '../modules/banking/banking.domain.js';
import type {
  BankingAccount,
  BankingDataset,
  BankingTransaction,
} from '../modules/banking/banking.records.js';
import { commerceDatasetOf, createOrder } from '../modules/commerce/commerce.domain.js';
import type {
  CommerceCustomer,
  CommerceDataset,
  CommerceProduct,
  CommerceVariant,
} from '../modules/commerce/commerce.records.js';
import { GBP_PER_EUR } from '../modules/commerce/commerce.seed.js';
import {
  createContact,
  createInvoice as createInvoicingInvoice,
  createPayment,
  createProduct,
  invoicingDatasetOf,
} from '../modules/invoicing/invoicing.domain.js';
import { closedProbability, opportunityRecord } from '../modules/invoicing/invoicing.opportunities.js';
import type { InvoicingDataset } from '../modules/invoicing/invoicing.records.js';
import { nextSourceId } from '../modules/invoicing/invoicing.seed.js';
import { paymentDatasetOf } from '../modules/payment/payment.domain.js';
import type {
  PaymentBalance,
  PaymentDataset,
  PaymentLocation,
  PaymentPayment,
  PaymentRefund,
} from '../modules/payment/payment.records.js';
import {
  balanceMovement,
  chargeFields,
  payableMovements,
  payOut,
  payoutDayOf,
  payoutNet,
  refundDescription,
  refundFields,
} from '../modules/payment/payment.seed.js';
import { pmsDatasetOf } from '../modules/pms/pms.domain.js';
import type { PmsDataset, PmsOrderLine } from '../modules/pms/pms.records.js';
import { bookStay, nextStay, stayLine } from '../modules/pms/pms.stays.js';
import { createCustomer as createPosCustomer, posDatasetOf } from '../modules/pos/pos.domain.js';
import type { PosDataset, PosOrder, PosOrderLine, PosProduct } from '../modules/pos/pos.records.js';
import { linePrice, modifierLine, orderLine, orderTotals } from '../modules/pos/pos.seed.js';
import type { ApiName, Integration } from '../platform/catalogue.js';
import { at, belgianIban, fakerFor } from '../platform/seeding/finance-fakes.js';
import { plusMinutes, round2 } from '../platform/seeding/vertical-data.js';
import { verticalFailure } from '../platform/vertical-connection.js';
import type { ConnectionRecord, ConsumerRecord } from '../store/world.js';
import {
  assertCovered,
  type FixtureContext,
  ID_TAKEN,
  pinnedIds,
  RefTable,
  UNKNOWN_REFERENCE,
} from './fixtures.context.js';
import { type PathPart, ruleError } from './fixtures.errors.js';
import type {
  AccountingFixture,
  BankingAccountFixture,
  BankingFixture,
  BankingTransactionFixture,
  CommerceCustomerFixture,
  CommerceFixture,
  CommerceProductFixture,
  ConnectionFixtureValue,
  InvoicingFixture,
  InvoicingOpportunityFixture,
  PaymentFixture,
  PaymentPaymentFixture,
  PaymentPayoutFixture,
  PmsFixture,
  PmsGuestFixture,
  PmsOrderFixture,
  PosFixture,
  PosModifierFixture,
  PosOrderFixture,
} from './fixtures.schema.js';

/**
 * The records of one connection's verticals. Each record the API creates goes through the domain
 * function of its operation (the one the handler calls), after the checks the operation's wrapper
 * makes (an active connection of the vertical, the integration's coverage of the operation, the
 * folder); records only the connected software creates (an eCommerce product, a POS order) are
 * built here under the invariants the seeders keep.
 */

/** Ids of the records created, by kind, in the document's order. */
export type VerticalRecords = Record<string, string[]>;

const VERTICALS = {
  accounting: 'Accounting',
  invoicing: 'Invoicing',
  commerce: 'eCommerce',
  pos: 'Point of Sale',
  banking: 'Banking',
  payment: 'Payment',
  pms: 'Property Management System',
} as const satisfies Record<string, ApiName>;

export type VerticalKey = keyof typeof VERTICALS;
export const VERTICAL_KEYS = Object.keys(VERTICALS) as VerticalKey[];

/** What every vertical operation checks first: the connection is active and of that One API. */
function assertVertical(
  context: FixtureContext,
  connection: ConnectionRecord,
  integration: Integration,
  key: VerticalKey,
  path: readonly PathPart[],
): void {
  const api = VERTICALS[key];
  const refuse = (detail: string) =>
    ruleError(serviceError('noActiveConnection', detail), null, path, context.file);
  if (integration.api !== api) {
    refuse(
      `${integration.name} is an integration of the ${integration.api} API: ${key} records need an integration of the ${api} API`,
    );
  }
  if (connection.status !== 'active') {
    refuse(`The connection is inactive: ${key} records need an active connection`);
  }
}

export function applyVerticals(
  context: FixtureContext,
  consumer: ConsumerRecord,
  connection: ConnectionRecord,
  integration: Integration,
  fixture: ConnectionFixtureValue,
  raw: Record<string, unknown>,
  path: readonly PathPart[],
): Record<string, VerticalRecords> {
  const out: Record<string, VerticalRecords> = {};
  for (const key of VERTICAL_KEYS) {
    const block = fixture[key];
    if (block === undefined) continue;
    const at = [...path, key];
    assertVertical(context, connection, integration, key, at);
    const rawBlock = (raw[key] ?? {}) as Record<string, unknown[]>;
    const scope = { context, consumer, connection, integration, path: at, raw: rawBlock };
    switch (key) {
      case 'accounting':
        out[key] = applyAccounting(scope, block as z.output<typeof AccountingFixture>);
        break;
      case 'invoicing':
        out[key] = applyInvoicing(scope, block as z.output<typeof InvoicingFixture>);
        break;
      case 'commerce':
        out[key] = applyCommerce(scope, block as z.output<typeof CommerceFixture>);
        break;
      case 'pos':
        out[key] = applyPos(scope, block as z.output<typeof PosFixture>);
        break;
      case 'banking':
        out[key] = applyBanking(scope, block as z.output<typeof BankingFixture>);
        break;
      case 'payment':
        out[key] = applyPayment(scope, block as z.output<typeof PaymentFixture>);
        break;
      case 'pms':
        out[key] = applyPms(scope, block as z.output<typeof PmsFixture>);
        break;
    }
  }
  return out;
}

interface Scope {
  context: FixtureContext;
  consumer: ConsumerRecord;
  connection: ConnectionRecord;
  integration: Integration;
  path: readonly PathPart[];
  raw: Record<string, unknown[] | unknown>;
}

/** The fixture's own fields of a record, apart from the API body. */
function split<T extends { id?: string | undefined; ref?: string | undefined }>(record: T) {
  const { id, ref, ...body } = record;
  return { id, ref, body };
}

/**
 * Runs `create` for each record of one kind (after the operation's coverage check, when the API
 * creates it) and returns the ids. `create` is handed the record, its path and its raw text.
 */
function each<T>(
  scope: Scope,
  kind: string,
  records: readonly T[] | undefined,
  operationId: string | null,
  create: (record: T, path: PathPart[], raw: unknown) => string,
): string[] {
  if (!records?.length) return [];
  const path = [...scope.path, kind];
  if (operationId) assertCovered(scope.context, scope.integration, operationId, path);
  const raws = (scope.raw[kind] ?? []) as unknown[];
  return records.map((record, index) => create(record, [...path, index], raws[index]));
}

/** Refuses an id already held by a record of the same collection. */
/** A refusal of a record's rule at a path of the document (the file, the JSON path, the rule). */
const failureAt =
  (context: FixtureContext) =>
  (where: PathPart[], detail: string): never =>
    ruleError(verticalFailure(detail), null, where, context.file);

function assertFree(context: FixtureContext, taken: boolean, id: string, what: string, path: PathPart[]) {
  if (taken) context.fail([...path, 'id'], ID_TAKEN, `The ${what} '${id}' already exists`);
}

/** The id of a new record (given, or derived from the seed), refused when `records` holds it already. */
function freshId(
  context: FixtureContext,
  given: string | undefined,
  path: PathPart[],
  records: Readonly<Record<string, unknown>> | undefined,
  what: string,
): string {
  const id = context.idFor(given, path);
  assertFree(context, Boolean(records?.[id]), id, what, path);
  return id;
}

/** Reports a record the document names that does not exist. */
function unknown(context: FixtureContext, path: PathPart[], detail: string): never {
  return context.fail(path, UNKNOWN_REFERENCE, detail);
}

// ---------------------------------------------------------------------------------------------
// Accounting: one folder's ledger, as POST .../accounting/... writes it.

function openLedger(scope: Scope, folderId: string | undefined): LedgerRecord {
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

function applyAccounting(scope: Scope, block: z.output<typeof AccountingFixture>): VerticalRecords {
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

// ---------------------------------------------------------------------------------------------
// Invoicing: the connection's dataset, as POST .../invoicing/... writes it.

function applyInvoicing(scope: Scope, block: z.output<typeof InvoicingFixture>): VerticalRecords {
  const { context, consumer, connection } = scope;
  const data: InvoicingDataset = invoicingDatasetOf(
    context.store,
    consumer.consumerid,
    connection.connectionid,
    connection.integrationid,
  );
  const contacts = new RefTable(context);
  const products = new RefTable(context);
  const invoices = new RefTable(context);
  const writeContext = (kind: string, id: string) => {
    const ids = pinnedIds(context.services.ids, kind, id);
    return { mint: (asked: string) => ids.next(asked), now: context.now() };
  };
  /** A tax by id or code. */
  const taxOf = (value: string | null | undefined) => {
    if (value === null || value === undefined || own(data.taxes, value)) return value;
    const code = value.toUpperCase();
    return Object.values(data.taxes).find((t) => t.code?.toUpperCase() === code)?.id ?? value;
  };

  const out: VerticalRecords = {};
  out.contacts = each(scope, 'contacts', block.contacts, 'invoicing_post_contacts', (record, path, raw) => {
    const { id: given, ref, body } = split(record);
    const id = freshId(context, given, path, data.contacts, 'contact');
    contacts.declare(ref, id, path);
    return context.at(path, raw, () => createContact(data, body, writeContext('invoicing-contact', id)).id);
  });
  out.products = each(scope, 'products', block.products, 'invoicing_post_products', (record, path) => {
    const { id: given, ref, body } = split(record);
    const id = freshId(context, given, path, data.products, 'product');
    products.declare(ref, id, path);
    const input = { ...body, tax_id: taxOf(body.tax_id) };
    return context.at(
      path,
      input,
      () => createProduct(data, input, writeContext('invoicing-product', id)).id,
    );
  });
  out.invoices = each(scope, 'invoices', block.invoices, 'invoicing_post_invoices', (record, path) => {
    const { id: given, ref, body } = split(record);
    const id = freshId(context, given, path, data.invoices, 'invoice');
    invoices.declare(ref, id, path);
    const input = {
      ...body,
      partner_id: contacts.resolve(body.partner_id),
      lines: body.lines?.map((line) => ({
        ...line,
        product_id: products.resolve(line.product_id),
        tax_id: taxOf(line.tax_id),
      })),
    };
    return context.at(
      path,
      input,
      () => createInvoicingInvoice(data, input, writeContext('invoicing-invoice', id)).id,
    );
  });
  /** A payment method by id or name. */
  const methodOf = (value: string | null | undefined) => {
    if (value === null || value === undefined || own(data.payment_methods, value)) return value;
    const name = value.toLowerCase();
    return Object.values(data.payment_methods).find((m) => m.name.toLowerCase() === name)?.id ?? value;
  };
  out.payments = each(scope, 'payments', block.payments, 'invoicing_create_payment', (record, path) => {
    const { id: given, body } = split(record);
    const id = freshId(context, given, path, data.payments, 'payment');
    const input = {
      ...body,
      invoice_id: invoices.resolve(body.invoice_id),
      payment_method_id: methodOf(body.payment_method_id),
    };
    return context.at(
      path,
      input,
      () => createPayment(data, input, writeContext('invoicing-payment', id)).id,
    );
  });
  out.opportunities = each(scope, 'opportunities', block.opportunities, null, (record, path) =>
    invoicingOpportunity(scope, data, record, path, contacts),
  );
  return out;
}

/**
 * An opportunity of the sales pipeline, as the seeder builds one: closed ones (won, lost, cancelled,
 * closed) have an end date, not before their creation, and won ones are certain (100%), lost ones
 * hopeless (0%); open ones have neither an end date nor an outcome.
 */
function invoicingOpportunity(
  scope: Scope,
  data: InvoicingDataset,
  record: z.output<typeof InvoicingOpportunityFixture>,
  path: PathPart[],
  contacts: RefTable,
): string {
  const { context } = scope;
  const failAt = failureAt(context);
  const id = freshId(context, record.id, path, data.opportunities, 'opportunity');
  const partnerId = contacts.resolve(record.partner_id) ?? null;
  if (partnerId !== null && !own(data.contacts, partnerId)) {
    unknown(
      context,
      [...path, 'partner_id'],
      `'${record.partner_id}' is not a contact of the software (GET .../invoicing/contacts lists them)`,
    );
  }
  const today = context.now().slice(0, 10);
  const created = record.created_date ?? today;
  if (created > today) failAt([...path, 'created_date'], `${created} is after the sandbox clock (${today})`);
  const open = record.status === 'open';
  if (open && record.end_date !== undefined) {
    failAt([...path, 'end_date'], 'An open opportunity has no end_date: it is not closed');
  }
  const end = open ? null : (record.end_date ?? today);
  if (end !== null && end < created) {
    failAt([...path, 'end_date'], `${end} is before created_date ${created}`);
  }
  if (end !== null && end > today)
    failAt([...path, 'end_date'], `${end} is after the sandbox clock (${today})`);
  const certain = closedProbability(record.status);
  if (certain !== null && record.probability !== undefined && record.probability !== certain) {
    failAt(
      [...path, 'probability'],
      `A ${record.status} opportunity has a probability of ${certain}, not ${record.probability}`,
    );
  }
  data.opportunities[id] = opportunityRecord({
    id,
    source_ref: { id: nextSourceId(data, 'O'), model: 'opportunity' },
    name: record.name,
    total: round2(record.total),
    probability: record.probability,
    status: record.status,
    partner_id: partnerId,
    comment: record.comment,
    currency: record.currency,
    description: record.description,
    // A stage of the pipeline names where an open one stands, and so its probability.
    stage: record.pipe_status,
    pipe_status: record.pipe_status,
    pipe_name: record.pipe_name,
    created_date: created,
    due_date: record.due_date,
    end_date: end,
  });
  return id;
}

// ---------------------------------------------------------------------------------------------
// eCommerce: products and customers of the shop, and orders as POST .../commerce/orders places them.

/** A phone number as compared, and the international form a new customer's must have (commerce.domain). */
const phoneKey = (phone: string) => phone.replace(/[\s.\-/()]/g, '').replace(/^00/, '+');
const INTERNATIONAL_PHONE = /^\+[1-9]\d{6,14}$/;

function commerceProduct(
  scope: Scope,
  data: CommerceDataset,
  record: z.output<typeof CommerceProductFixture>,
  path: PathPart[],
  refs: { products: RefTable; variants: RefTable },
): string {
  const { context } = scope;
  const now = context.now();
  const failAt = failureAt(context);
  const productId = freshId(context, record.id, path, data.products, 'product');
  refs.products.declare(record.ref, productId, path);
  const rate = record.tax_rate ?? 21;
  const tax =
    data.tax_rates.find((t) => t.rate === rate && t.country === 'BE') ??
    data.tax_rates.find((t) => t.rate === rate);
  if (!tax) {
    failAt(
      [...path, 'tax_rate'],
      `${rate}% is not a tax rate of the shop (${[...new Set(data.tax_rates.map((t) => t.rate))].join(', ')})`,
    );
  }
  const categories = (record.categories ?? []).map((value, index) => {
    const found = data.categories.find((c) => c.id === value || c.name.toLowerCase() === value.toLowerCase());
    if (!found) {
      const names = data.categories.map((c) => c.name).join(', ');
      unknown(context, [...path, 'categories', index], `'${value}' is not a category of the shop: ${names}`);
    }
    return found.id;
  });
  if (record.variants && (record.price !== undefined || record.stock !== undefined)) {
    context.fail(
      path,
      'Give price and stock per variant',
      'A product with variants takes price and stock in each',
    );
  }
  if (!record.variants && record.price === undefined) {
    context.fail([...path, 'price'], 'Validation error', 'Field required (or give variants)', 422);
  }
  const specs = record.variants ?? [{ price: record.price ?? 0, stock: record.stock, sku: record.sku }];
  const status = record.status ?? 'published';
  const skus = new Set(
    Object.values(data.products).flatMap((p) => p.variants.map((v) => v.sku?.toLowerCase()).filter(Boolean)),
  );
  const variants: CommerceVariant[] = specs.map((spec, index) => {
    const at = record.variants ? [...path, 'variants', index] : path;
    const variantId = record.variants
      ? context.idFor((spec as { id?: string }).id, at)
      : uuidFrom('fixture-variant', productId, 0);
    if (own(data.variant_index, variantId)) assertFree(context, true, variantId, 'variant', at);
    refs.variants.declare((spec as { ref?: string }).ref, variantId, at);
    const sku = spec.sku ?? null;
    if (sku !== null) {
      if (skus.has(sku.toLowerCase())) {
        failAt([...at, 'sku'], `The sku '${sku}' is the sku of another variant of the shop`);
      }
      skus.add(sku.toLowerCase());
    }
    const attributes = Object.entries((spec as { attributes?: Record<string, string> }).attributes ?? {});
    const name =
      (spec as { name?: string }).name ??
      (attributes.length ? `${record.name} - ${attributes.map(([, v]) => v).join(' / ')}` : record.name);
    const stock: Record<string, number> = Object.fromEntries(data.locations.map((l) => [l.id, 0]));
    const given = spec.stock;
    if (typeof given === 'number') {
      const first = data.locations[0];
      if (first) stock[first.id] = given;
    } else if (given) {
      for (const [where, units] of Object.entries(given)) {
        const key = where.toLowerCase();
        const location = data.locations.find(
          (l) => l.id === where || l.name.toLowerCase() === key || l.address.city?.toLowerCase() === key,
        );
        if (!location) {
          const names = data.locations.map((l) => `${l.name} (${l.address.city})`).join(', ');
          unknown(context, [...at, 'stock', where], `'${where}' is not a location of the shop: ${names}`);
        }
        stock[location.id] = units;
      }
    }
    return {
      id: variantId,
      source_ref: { id: `F${productId.slice(0, 8)}-${index + 1}`, model: 'product_variant' },
      parent_id: productId,
      name,
      description: null,
      description_html: null,
      created_on: now,
      sku,
      taxable: true,
      barcode: null,
      prices: data.currencies.map((currency) => ({
        currency,
        price: currency === 'GBP' ? round2(spec.price * GBP_PER_EUR) : round2(spec.price),
      })),
      unit_cost: null,
      unit_of_measure: 'unit',
      weight: 0,
      weight_unit: 'kg',
      status,
      variant_attributes: attributes.map(([attribute, value]) => ({ name: attribute, value })),
      variant_images: [],
      stock,
    };
  });
  const options = new Map<string, string[]>();
  for (const variant of variants) {
    for (const { name, value } of variant.variant_attributes) {
      const values = options.get(name) ?? [];
      if (!values.includes(value)) values.push(value);
      options.set(name, values);
    }
  }
  const product: CommerceProduct = {
    id: productId,
    source_ref: { id: `F${productId.slice(0, 8)}`, model: 'product' },
    name: record.name,
    description: record.description ?? null,
    description_html: null,
    categories,
    created_on: now,
    last_updated_on: now,
    variants,
    status,
    sku: record.variants ? (record.sku ?? null) : (variants[0]?.sku ?? null),
    common_attributes: [],
    variant_attributes_options: [...options].map(([name, values]) => ({ name, values })),
    common_images: [],
    tax_id: (tax as { id: string }).id,
  };
  data.products[productId] = product;
  for (const variant of variants) data.variant_index[variant.id] = productId;
  return productId;
}

function commerceCustomer(
  scope: Scope,
  data: CommerceDataset,
  record: z.output<typeof CommerceCustomerFixture>,
  path: PathPart[],
): string {
  const { context } = scope;
  const id = freshId(context, record.id, path, data.customers, 'customer');
  const email = record.email.trim();
  const owner = Object.values(data.customers).find((c) => c.email?.toLowerCase() === email.toLowerCase());
  if (owner) {
    ruleError(
      verticalFailure(
        `The e-mail '${email}' is the e-mail of the customer ${owner.id}: an order names its customer by it`,
      ),
      record,
      path,
      context.file,
    );
  }
  const phone = record.phone?.trim() ? record.phone : null;
  if (phone !== null) {
    const key = phoneKey(phone);
    if (!INTERNATIONAL_PHONE.test(key)) {
      ruleError(
        serviceError('phoneInvalid', `phone '${phone}' does not begin with a country code`),
        record,
        path,
        context.file,
      );
    }
    const other = Object.values(data.customers).find((c) => c.phone && phoneKey(c.phone) === key);
    if (other) {
      ruleError(
        serviceError('phoneAlreadyUsed', `phone '${phone}' is the phone of ${other.id}`),
        record,
        path,
        context.file,
      );
    }
  }
  if (record.country !== undefined && !isCountryCode(record.country)) {
    ruleError(
      verticalFailure(`country '${record.country}' is not a valid country code`),
      record,
      path,
      context.file,
    );
  }
  const customer: CommerceCustomer = {
    id,
    source_ref: { id: `F${id.slice(0, 8)}`, model: 'customer' },
    first_name: record.first_name,
    last_name: record.last_name,
    phone,
    email,
    language: record.language ?? null,
    internal_notes: record.internal_notes ?? null,
    currency: record.currency ?? data.currencies[0] ?? null,
    addresses:
      record.country === undefined
        ? []
        : [
            {
              address_type: 'main',
              company_name: null,
              first_name: record.first_name,
              last_name: record.last_name,
              street: record.street ?? null,
              number: record.number ?? null,
              box: null,
              city: record.city ?? null,
              postal_code: record.postal_code ?? null,
              country: record.country.toUpperCase(),
              phone,
              email,
              vat: null,
            },
          ],
    created_on: context.now(),
  };
  data.customers[id] = customer;
  return id;
}

function applyCommerce(scope: Scope, block: z.output<typeof CommerceFixture>): VerticalRecords {
  const { context, connection } = scope;
  const data = commerceDatasetOf(context.store, connection);
  const refs = { products: new RefTable(context), variants: new RefTable(context) };
  /** A variant by ref or id, a product of one variant by ref or id, or a sku. */
  const variantOf = (value: string) => {
    const variant = refs.variants.get(value);
    if (variant) return variant;
    const productId = refs.products.get(value) ?? (own(data.products, value) ? value : undefined);
    const product = productId ? own(data.products, productId) : undefined;
    if (product && product.variants.length === 1) return product.variants[0]?.id ?? value;
    if (own(data.variant_index, value)) return value;
    const sku = value.toLowerCase();
    for (const candidate of Object.values(data.products)) {
      const found = candidate.variants.find((v) => v.sku?.toLowerCase() === sku);
      if (found) return found.id;
    }
    return value;
  };
  const out: VerticalRecords = {};
  out.products = each(scope, 'products', block.products, null, (record, path) =>
    commerceProduct(scope, data, record, path, refs),
  );
  out.customers = each(scope, 'customers', block.customers, null, (record, path) =>
    commerceCustomer(scope, data, record, path),
  );
  out.orders = each(scope, 'orders', block.orders, 'ecommerce_create_order', (record, path) => {
    const { id: given, body } = split(record);
    const id = freshId(context, given, path, data.orders, 'order');
    const input = {
      ...body,
      lines: body.lines.map((line) => ({ ...line, variant_id: variantOf(line.variant_id) })),
    };
    const mint = (kind: string) => () => context.services.ids.next(kind);
    return context.at(path, input, () => {
      const { order } = createOrder(
        data,
        input,
        {
          order: () => id,
          customer: mint('commerce-customer'),
          line: mint('commerce-line'),
          fee: mint('commerce-fee'),
          transaction: mint('commerce-transaction'),
        },
        context.now(),
      );
      return order.id;
    });
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Point of Sale: customers as POST .../pos/customers creates them, orders as the till records them.

/**
 * An option chosen on a line: one of the modifier groups the product takes at the location, by the
 * option's id or name (and its group's, when two of them name it).
 */
function posModifier(
  scope: Scope,
  data: PosDataset,
  product: PosProduct,
  locationId: string,
  chosen: z.output<typeof PosModifierFixture>,
  quantity: number,
  path: PathPart[],
) {
  const { context } = scope;
  let groups = data.modifiers.filter(
    (g) => product.modifier_groups_ids.includes(g.id) && g.location_ids.includes(locationId),
  );
  const offered = () =>
    groups.map((g) => `${g.name}: ${g.options.map((o) => o.name).join(', ')}`).join('; ') || 'none';
  if (chosen.modifier_group_id !== undefined) {
    const group = byIdOrName(groups, chosen.modifier_group_id);
    if (!group) {
      return unknown(
        context,
        [...path, 'modifier_group_id'],
        `'${chosen.modifier_group_id}' is not a modifier group of '${product.name}' (${offered()})`,
      );
    }
    groups = [group];
  }
  const matches = groups.flatMap((group) => {
    const option = byIdOrName(group.options, chosen.modifier_id);
    return option ? [{ group, option }] : [];
  });
  const [match, other] = matches;
  if (!match) {
    return unknown(
      context,
      [...path, 'modifier_id'],
      `'${chosen.modifier_id}' is not an option of the modifier groups of '${product.name}' (${offered()})`,
    );
  }
  if (other) {
    context.fail(
      [...path, 'modifier_group_id'],
      'Field required',
      `'${chosen.modifier_id}' is an option of ${matches.map((m) => m.group.name).join(' and ')}: give its modifier_group_id`,
    );
  }
  return modifierLine(match.group, match.option, quantity);
}

function posOrder(
  scope: Scope,
  data: PosDataset,
  record: z.output<typeof PosOrderFixture>,
  path: PathPart[],
  customers: RefTable,
): string {
  const { context } = scope;
  const failAt = failureAt(context);
  const orderId = freshId(context, record.id, path, data.orders, 'order');
  const byIdOrName = <T extends { id: string; name: string | null }>(list: readonly T[], value: string) =>
    list.find((item) => item.id === value || item.name?.toLowerCase() === value.toLowerCase());

  const location = record.location
    ? (byIdOrName(data.locations, record.location) ??
      data.locations.find((l) => l.address?.city?.toLowerCase() === record.location?.toLowerCase()))
    : data.locations[0];
  if (!location) {
    const names = data.locations.map((l) => `${l.name} (${l.address?.city})`).join(', ');
    return unknown(
      context,
      [...path, 'location'],
      `'${record.location}' is not a location of the point of sale: ${names}`,
    );
  }
  let customerId: string | null = null;
  if (record.customer_id !== null && record.customer_id !== undefined) {
    customerId = customers.resolve(record.customer_id);
    if (!own(data.customers, customerId)) {
      unknown(
        context,
        [...path, 'customer_id'],
        `'${record.customer_id}' is not a customer of the point of sale`,
      );
    }
  }
  const methods = data.payment_methods.filter((m) => m.location_ids.includes(location.id));
  const method = record.payment_method ? byIdOrName(methods, record.payment_method) : methods[0];
  if (!method) {
    unknown(
      context,
      [...path, 'payment_method'],
      `'${record.payment_method ?? ''}' is not a payment method of ${location.name}: ${methods.map((m) => m.name).join(', ')}`,
    );
  }
  const created = new Date(record.creation_date).toISOString();
  const now = context.now();
  if (created > now) failAt([...path, 'creation_date'], `${created} is after the sandbox clock (${now})`);
  const closing =
    record.closing_date === undefined
      ? plusMinutes(created, 30)
      : record.closing_date === null
        ? null
        : new Date(record.closing_date).toISOString();
  if (closing !== null && closing < created) {
    failAt([...path, 'closing_date'], `${closing} is before the order's creation_date ${created}`);
  }
  const mode = record.mode ?? 'EAT_IN';
  const items: PosOrderLine[] = record.items.map((item, index) => {
    const at = [...path, 'items', index];
    const product = byIdOrName(data.products, item.product);
    if (!product) {
      return unknown(
        context,
        [...at, 'product'],
        `'${item.product}' is not a product of the point of sale (GET .../pos/products lists them)`,
      );
    }
    if (!product.location_ids.includes(location.id))
      failAt([...at, 'product'], `'${product.name}' is not sold at ${location.name}`);
    const { price, tax } = linePrice(data, product, mode);
    const modifiers = (item.modifiers ?? []).map((chosen, m) =>
      posModifier(scope, data, product, location.id, chosen, item.quantity, [...at, 'modifiers', m]),
    );
    const line = {
      unitPrice: item.unit_price ?? price.unit_price,
      quantity: item.quantity,
      tax,
      modifiers,
      discounts: (item.discounts ?? []).map((d) => ({ name: d.name, total: round2(d.total), type: d.type })),
    };
    return context.at([...at, 'discounts'], null, () => orderLine(orderId, index, product, line));
  });
  const totals = orderTotals(items);
  const total = totals.total;
  const closed = closing !== null && closing <= now;
  data.counters.order = (data.counters.order ?? 0) + 1;
  const order: PosOrder = {
    id: orderId,
    order_number: String(data.counters.order),
    creation_date: created,
    closing_date: closed ? closing : null,
    service_date: created,
    device_id: null,
    total,
    tax_amount: totals.tax_amount,
    total_discount: totals.total_discount,
    total_refund: 0,
    total_tip: closed ? record.tip : 0,
    delivery_fee: totals.delivery_fee,
    mode,
    source: record.source ?? 'POS',
    currency: 'EUR',
    country: 'BE',
    loyalty: customerId && closed ? Math.floor(total) : null,
    customer_id: customerId,
    location_id: location.id,
    taxes: totals.taxes,
    guests: record.guests ?? null,
    payments: closed
      ? [
          {
            id: uuidFrom('pos-payment', orderId, 0),
            payment_method_id: method.id,
            payment_method_name: method.name,
            total,
            tip: record.tip,
            status: 'Completed',
            currency: 'EUR',
            date: closing,
            invoice_ref: null,
            order_id: orderId,
          },
        ]
      : [],
    items,
    invoice_id: null,
    // An order closing after the clock is open until then (the clock completes it, as a seeded one).
    closes_at: closed ? null : closing,
    planned_payment: closed ? null : { payment_method_id: method.id, tip: record.tip },
  };
  data.orders[orderId] = order;
  if (!closed) data.open_orders.push(orderId);
  const customer = customerId ? own(data.customers, customerId) : undefined;
  if (customer && closed) customer.loyalty = (customer.loyalty ?? 0) + Math.floor(total);
  return orderId;
}

function applyPos(scope: Scope, block: z.output<typeof PosFixture>): VerticalRecords {
  const { context, connection } = scope;
  const data = posDatasetOf(context.store, connection);
  const customers = new RefTable(context);
  const out: VerticalRecords = {};
  out.customers = each(
    scope,
    'customers',
    block.customers,
    'pos_create_pos_customer',
    (record, path, raw) => {
      const { id: given, ref, body } = split(record);
      const id = freshId(context, given, path, data.customers, 'customer');
      customers.declare(ref, id, path);
      return context.at(path, raw, () => createPosCustomer(data, body, () => id, context.now()).id);
    },
  );
  out.orders = each(scope, 'orders', block.orders, null, (record, path) =>
    posOrder(scope, data, record, path, customers),
  );
  return out;
}

// ---------------------------------------------------------------------------------------------
// Banking: accounts of the connection and their transactions, as the bank books them (the API
// creates none). Balances are not stored: the API computes them from the opening balance and the
// completed transactions, as for seeded accounts.

const byIdOrName = <T extends { id: string; name: string | null }>(list: readonly T[], value: string) =>
  list.find((item) => item.id === value || item.name?.toLowerCase() === value.toLowerCase());

function bankingTransaction(
  scope: Scope,
  data: BankingDataset,
  account: BankingAccount,
  record: z.output<typeof BankingTransactionFixture>,
  path: PathPart[],
): string {
  const { context } = scope;
  const failAt = failureAt(context);
  const id = freshId(context, record.id, path, data.transactions, 'transaction');
  if (record.amount === 0) failAt([...path, 'amount'], 'A transaction moves an amount: 0 is refused');
  if (record.currency !== undefined && record.currency !== account.currency) {
    failAt(
      [...path, 'currency'],
      `The account ${account.id} holds ${account.currency}: a transaction on it is in ${account.currency}, not ${record.currency}`,
    );
  }
  const execution = new Date(record.execution_date).toISOString();
  const now = context.now();
  if (execution > now) {
    failAt([...path, 'execution_date'], `${execution} is after the sandbox clock (${now})`);
  }
  const valueDay = record.value_date ?? execution.slice(0, 10);
  if (valueDay < execution.slice(0, 10)) {
    failAt([...path, 'value_date'], `${valueDay} is before the day of execution_date ${execution}`);
  }
  const transaction: BankingTransaction = {
    id,
    bank_account_id: account.id,
    amount: round2(record.amount),
    tax_amount: record.tax_amount ?? null,
    currency: account.currency,
    description: record.description ?? null,
    additional_information: record.additional_information ?? null,
    counterpart_name: record.counterpart_name ?? null,
    counterpart_reference: record.counterpart_reference ?? null,
    remittance_information: record.remittance_information ?? null,
    creation_date: execution,
    value_date: at(valueDay, 0),
    execution_date: execution,
    internal_transaction: record.internal_transaction,
    operation_type: record.operation_type ?? (record.amount > 0 ? 'incoming_transfer' : 'outgoing_transfer'),
    last_update_on: execution,
    status: record.status,
    attachments: [],
  };
  data.transactions[id] = transaction;
  return id;
}

function bankingAccount(
  scope: Scope,
  data: BankingDataset,
  record: z.output<typeof BankingAccountFixture>,
  path: PathPart[],
  accounts: RefTable,
): string {
  const { context } = scope;
  const id = freshId(context, record.id, path, data.accounts, 'account');
  accounts.declare(record.ref, id, path);
  const institutions = Object.values(data.institutions);
  const institution = record.institution ? byIdOrName(institutions, record.institution) : institutions[0];
  if (!institution) {
    const names = institutions.map((i) => `${i.id} (${i.name})`).join(', ');
    unknown(
      context,
      [...path, 'institution'],
      `'${record.institution ?? ''}' is not a financial institution of the connection: ${names}`,
    );
  }
  const reference = record.reference ?? belgianIban(fakerFor('fixture-iban', id));
  const key = reference.replace(/\s/g, '').toUpperCase();
  const owner = Object.values(data.accounts).find(
    (a) => a.reference.replace(/\s/g, '').toUpperCase() === key,
  );
  if (owner) {
    ruleError(
      verticalFailure(`The reference '${reference}' is the reference of the account ${owner.id}`),
      null,
      [...path, 'reference'],
      context.file,
    );
  }
  const account: BankingAccount = {
    id,
    institution_id: institution.id,
    currency: record.currency,
    description: record.description,
    reference,
    reference_type: record.reference_type,
    holder_name: record.holder_name ?? null,
    active: record.active,
    opening_balance: round2(record.opening_balance),
  };
  data.accounts[id] = account;
  return id;
}

function applyBanking(scope: Scope, block: z.output<typeof BankingFixture>): VerticalRecords {
  const { context, consumer, connection } = scope;
  const data = bankingDatasetOf(
    context.store,
    consumer.consumerid,
    connection.connectionid,
    connection.integrationid,
  );
  const accounts = new RefTable(context);
  const out: VerticalRecords = { accounts: [], transactions: [] };
  out.accounts = each(scope, 'accounts', block.accounts, null, (record, path) => {
    const id = bankingAccount(scope, data, record, path, accounts);
    const account = own(data.accounts, id) as BankingAccount;
    (record.transactions ?? []).forEach((transaction, index) => {
      out.transactions?.push(
        bankingTransaction(scope, data, account, transaction, [...path, 'transactions', index]),
      );
    });
    return id;
  });
  const loose = each(scope, 'transactions', block.transactions, null, (record, path) => {
    const { account: named, ...transaction } = record;
    const account = own(data.accounts, accounts.resolve(named));
    if (!account) {
      return unknown(
        context,
        [...path, 'account'],
        `The account '${named}' does not exist (GET .../banking/accounts lists them)`,
      );
    }
    return bankingTransaction(scope, data, account, transaction, path);
  });
  out.transactions?.push(...loose);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Payment: payments of the provider, their refunds, and the balance movements they make (as the
// seeder makes them: a completed payment brings its amount in and the card fee out, a completed
// refund takes its amount out), and payouts of a balance, by the seeder's own functions. The API
// creates none; a movement stays unpaid until a payout of the document pays it out.

/** The provider's own id of a fixture's record (its source_ref id): py_F..., po_F... */
const sourceId = (prefix: string, of: string) => `${prefix}_F${of.replace(/-/g, '').slice(0, 13)}`;
/** The id of the balance movement a fixture's payment, refund or payout makes. */
const movement = (kind: string, of: string) => uuidFrom('fixture-payment-movement', kind, of);

/** A location of the provider by id or name (default: the first), and its balance. */
function paymentLocation(
  scope: Scope,
  data: PaymentDataset,
  value: string | undefined,
  path: PathPart[],
): { location: PaymentLocation; balance: PaymentBalance } {
  const locations = Object.values(data.locations);
  const location = value ? byIdOrName(locations, value) : locations[0];
  if (!location) {
    const names = locations.map((l) => `${l.id} (${l.name})`).join(', ');
    return unknown(
      scope.context,
      [...path, 'location'],
      `'${value ?? ''}' is not a location of the provider: ${names}`,
    );
  }
  const balance = Object.values(data.balances).find((b) => b.location_id === location.id) as PaymentBalance;
  return { location, balance };
}

/**
 * A payout of a location's balance, as the provider makes one (payment.seed.ts): made three days
 * before it reaches the bank, it pays out the movements no payout has paid yet, once two days old.
 */
function paymentPayout(
  scope: Scope,
  data: PaymentDataset,
  record: z.output<typeof PaymentPayoutFixture>,
  path: PathPart[],
): string {
  const { context } = scope;
  const failAt = failureAt(context);
  const id = freshId(context, record.id, path, data.payouts, 'payout');
  const { location, balance } = paymentLocation(scope, data, record.location, path);
  const now = context.now();
  const today = now.slice(0, 10);
  const day = payoutDayOf(record.payment_date);
  const at = [...path, 'payment_date'];
  if (day > today)
    failAt(
      at,
      `A payout reaching the bank on ${record.payment_date} is made on ${day}, after the sandbox clock (${now})`,
    );
  const movements = payableMovements(data, balance, day);
  const net = payoutNet(movements);
  if (net <= 0) {
    failAt(
      at,
      `A payout made on ${day} has nothing to pay out: the movements of ${location.name} no payout has paid yet, once two days old, come to ${net}`,
    );
  }
  const movementId = movement('payout', id);
  const made = payOut(data, balance, movements, day, today, (kind) =>
    kind === 'payout'
      ? { id, sourceId: sourceId('po', id) }
      : { id: movementId, sourceId: sourceId('txn', movementId) },
  );
  if (made.movement.create_date > now) {
    failAt(
      at,
      `A payout made on ${day} leaves the balance at ${made.movement.create_date}, after the sandbox clock (${now})`,
    );
  }
  return made.payout.id;
}

function paymentRecord(
  scope: Scope,
  data: PaymentDataset,
  record: z.output<typeof PaymentPaymentFixture>,
  path: PathPart[],
  out: VerticalRecords,
): string {
  const { context } = scope;
  const failAt = failureAt(context);
  const id = freshId(context, record.id, path, data.payments, 'payment');
  const { location, balance } = paymentLocation(scope, data, record.location, path);
  if (record.currency !== undefined && record.currency !== balance.currency) {
    failAt(
      [...path, 'currency'],
      `The balance of ${location.name} holds ${balance.currency}: a payment there is in ${balance.currency}, not ${record.currency}`,
    );
  }
  const stamp = new Date(record.payment_date).toISOString();
  const now = context.now();
  if (stamp > now) failAt([...path, 'payment_date'], `${stamp} is after the sandbox clock (${now})`);
  const payment: PaymentPayment = {
    id,
    source_ref: { id: sourceId('py', id), model: 'payment' },
    location_id: location.id,
    status: record.status,
    description: record.description,
    amount: round2(record.amount),
    currency: balance.currency,
    payment_date: stamp,
    partner_id: record.partner_id ?? null,
  };
  data.payments[id] = payment;
  if (payment.status === 'completed') {
    const movementId = movement('payment', id);
    const ids = { id: movementId, sourceId: sourceId('txn', movementId) };
    data.transactions[movementId] = balanceMovement(balance, ids, chargeFields(payment));
  }
  let left = Math.round(payment.amount * 100);
  (record.refunds ?? []).forEach((refund, index) => {
    const at = [...path, 'refunds', index];
    if (payment.status !== 'completed') {
      failAt(at, `The payment is ${payment.status}: only a completed payment is refunded`);
    }
    const refundId = freshId(context, refund.id, at, data.refunds, 'refund');
    const amount = refund.amount === undefined ? left / 100 : round2(refund.amount);
    if (Math.round(amount * 100) > left || left === 0) {
      failAt(
        [...at, 'amount'],
        `${amount} is more than what is left to refund of the payment (${left / 100} of ${payment.amount})`,
      );
    }
    left -= Math.round(amount * 100);
    const date = new Date(refund.refund_date).toISOString();
    if (date < stamp) failAt([...at, 'refund_date'], `${date} is before the payment (${stamp})`);
    if (date > now) failAt([...at, 'refund_date'], `${date} is after the sandbox clock (${now})`);
    const made: PaymentRefund = {
      id: refundId,
      source_ref: { id: sourceId('re', refundId), model: 'refund' },
      location_id: location.id,
      payment_id: id,
      status: refund.status,
      description: refund.description ?? refundDescription(payment, amount === payment.amount),
      amount,
      currency: payment.currency,
      refund_date: date,
    };
    data.refunds[refundId] = made;
    out.refunds?.push(refundId);
    if (refund.status !== 'completed') return;
    const movementId = movement('refund', refundId);
    const ids = { id: movementId, sourceId: sourceId('txn', movementId) };
    data.transactions[movementId] = balanceMovement(balance, ids, refundFields(payment, made));
  });
  return id;
}

function applyPayment(scope: Scope, block: z.output<typeof PaymentFixture>): VerticalRecords {
  const { context, consumer, connection } = scope;
  const data = paymentDatasetOf(
    context.store,
    consumer.consumerid,
    connection.connectionid,
    connection.integrationid,
  );
  const out: VerticalRecords = { payments: [], refunds: [] };
  out.payments = each(scope, 'payments', block.payments, null, (record, path) =>
    paymentRecord(scope, data, record, path, out),
  );
  // After the payments: a payout pays out their movements too.
  out.payouts = each(scope, 'payouts', block.payouts, null, (record, path) =>
    paymentPayout(scope, data, record, path),
  );
  return out;
}

// ---------------------------------------------------------------------------------------------
// Property Management System: stays, as the seeder builds them (the API creates none): lines
// totalled as its lines (the city tax adds no VAT), numbered after the seeded ones, invoiced and
// paid in full at check-out when the sandbox clock has passed it.

function pmsOrder(
  scope: Scope,
  data: PmsDataset,
  record: z.output<typeof PmsOrderFixture>,
  path: PathPart[],
  guests: RefTable,
): string {
  const { context } = scope;
  const failAt = failureAt(context);
  const orderId = freshId(context, record.id, path, data.orders, 'order');
  const location = record.location
    ? (byIdOrName(data.locations, record.location) ??
      data.locations.find((l) => l.address?.city?.toLowerCase() === record.location?.toLowerCase()))
    : data.locations[0];
  if (!location) {
    const names = data.locations.map((l) => `${l.name} (${l.address?.city})`).join(', ');
    return unknown(
      context,
      [...path, 'location'],
      `'${record.location}' is not a hotel of the property: ${names}`,
    );
  }
  const rooms = data.rooms.filter((r) => r.location_id === location.id);
  const room = record.room
    ? (byIdOrName(rooms, record.room) ?? rooms.find((r) => r.identifier === record.room))
    : rooms[0];
  if (!room) {
    return unknown(context, [...path, 'room'], `'${record.room}' is not a room of ${location.name}`);
  }
  const named = guests.resolve(record.customer);
  const wanted = named.toLowerCase();
  const customer = Object.values(data.customers).find(
    (c) => c.id === named || c.account_number === named || c.email?.toLowerCase() === wanted,
  );
  if (!customer) {
    return unknown(
      context,
      [...path, 'customer'],
      `'${record.customer}' is not a guest of the property (GET .../pms/customers lists them)`,
    );
  }
  const methods = data.payment_methods.filter((m) => m.location_ids.includes(location.id));
  const method = record.payment_method ? byIdOrName(methods, record.payment_method) : methods[0];
  if (!method) {
    return unknown(
      context,
      [...path, 'payment_method'],
      `'${record.payment_method ?? ''}' is not a payment method of ${location.name}: ${methods.map((m) => m.name).join(', ')}`,
    );
  }
  const checkIn = new Date(record.check_in).toISOString();
  const checkOut = new Date(record.check_out).toISOString();
  const booked = record.booked ? new Date(record.booked).toISOString() : checkIn;
  const now = context.now();
  if (checkIn > now) failAt([...path, 'check_in'], `${checkIn} is after the sandbox clock (${now})`);
  if (checkOut <= checkIn) failAt([...path, 'check_out'], `${checkOut} is not after check_in ${checkIn}`);
  if (booked > checkIn) failAt([...path, 'booked'], `${booked} is after check_in ${checkIn}`);

  const { number } = nextStay(data);
  const items: PmsOrderLine[] = record.lines.map((line, index) => {
    const at = [...path, 'lines', index];
    const given = String(line.tax).toLowerCase();
    const tax = data.tax_rates.find(
      (t) =>
        t.id === line.tax ||
        t.label?.toLowerCase() === given ||
        (typeof line.tax === 'number' && !t.is_city_tax && t.rate === line.tax),
    );
    if (!tax) {
      const names = data.tax_rates.map((t) => t.label).join(', ');
      return unknown(context, [...at, 'tax'], `'${line.tax}' is not a tax of the property: ${names}`);
    }
    const key = line.category.toLowerCase();
    const category = data.accounting_categories.find(
      (c) => c.id === line.category || c.name.toLowerCase() === key || c.code?.toLowerCase() === key,
    );
    if (!category) {
      const names = data.accounting_categories.map((c) => `${c.name} (${c.code})`).join(', ');
      return unknown(
        context,
        [...at, 'category'],
        `'${line.category}' is not an accounting category of the property: ${names}`,
      );
    }
    if (round2(line.quantity * line.unit_price - line.discount) < 0)
      failAt([...at, 'discount'], `The discount ${line.discount} is more than the line's amount`);
    return stayLine(orderId, number, index, {
      description: line.description,
      quantity: line.quantity,
      unitPrice: line.unit_price,
      tax,
      categoryId: category.id,
      discount: line.discount ? { name: 'Discount', total: line.discount } : null,
    });
  });
  bookStay(data, {
    orderId,
    number,
    locationId: location.id,
    room,
    customerId: customer.id,
    checkIn,
    checkOut,
    booked,
    guests: record.guests,
    lines: items,
    closed: checkOut <= now,
    // Paid in full at check-out, with the stay's payment method.
    payments: (invoiceId, invoiceNumber, total) => [
      {
        id: uuidFrom('pms-payment', invoiceId, 0),
        source_ref: { id: `${invoiceNumber}/1`, model: 'payment' },
        payment_method_id: method.id,
        payment_method_name: method.name,
        total,
        tip: 0,
        status: 'Completed',
        currency: 'EUR',
        date: checkOut,
        invoice_ref: invoiceNumber,
        customer_id: customer.id,
        description: `Payment for invoice ${invoiceNumber}`,
      },
    ],
    source: () => record.source,
  });
  return orderId;
}

/**
 * A guest of the property, as the seeder makes one: a person (a last name) or a company (its name
 * only), with an account number and an e-mail each unique among the guests (a stay names its guest
 * by either), and one address (home for a person, invoice for a company) when a country is given.
 */
function pmsGuest(
  scope: Scope,
  data: PmsDataset,
  record: z.output<typeof PmsGuestFixture>,
  path: PathPart[],
  guests: RefTable,
): string {
  const { context } = scope;
  const failAt = failureAt(context);
  const id = freshId(context, record.id, path, data.customers, 'guest');
  guests.declare(record.ref, id, path);
  const company = record.company_name ?? null;
  if (company !== null && (record.first_name || record.last_name)) {
    failAt([...path, 'company_name'], 'A company guest has no first_name or last_name');
  }
  if (company === null && !record.last_name) {
    failAt([...path, 'last_name'], 'A guest is a person (a last_name) or a company (a company_name)');
  }
  const existing = Object.values(data.customers);
  const email = record.email?.trim() || null;
  const owner = email && existing.find((c) => c.email?.toLowerCase() === email.toLowerCase());
  if (owner) {
    failAt(
      [...path, 'email'],
      `The e-mail '${email}' is the e-mail of the guest ${owner.id}: a stay names its guest by it`,
    );
  }
  const numbers = existing.map((c) => c.account_number).filter((n): n is string => n !== null);
  const next = Math.max(400000, ...numbers.filter((n) => /^\d+$/.test(n)).map(Number)) + 1;
  const accountNumber = record.account_number ?? String(next);
  if (numbers.includes(accountNumber)) {
    failAt([...path, 'account_number'], `The account number '${accountNumber}' is another guest's`);
  }
  if (record.country !== undefined && !isCountryCode(record.country)) {
    failAt([...path, 'country'], `country '${record.country}' is not a valid country code`);
  }
  data.customers[id] = {
    id,
    source_ref: { id: `F${id.slice(0, 8)}`, model: 'guest' },
    first_name: company === null ? (record.first_name ?? null) : null,
    last_name: company === null ? (record.last_name ?? null) : null,
    company_name: company,
    phone: record.phone?.trim() || null,
    email,
    account_number: accountNumber,
    created_on: context.now(),
    addresses:
      record.country === undefined
        ? []
        : [
            {
              address_type: company === null ? 'home' : 'invoice',
              name: company === null ? 'Home' : 'Head office',
              street: record.street ?? null,
              number: record.number ?? null,
              box: record.box ?? null,
              city: record.city ?? null,
              postal_code: record.postal_code ?? null,
              country: record.country.toUpperCase(),
            },
          ],
    is_company: company !== null,
  };
  return id;
}

function applyPms(scope: Scope, block: z.output<typeof PmsFixture>): VerticalRecords {
  const { context, connection } = scope;
  const data = pmsDatasetOf(context.store, connection);
  const guests = new RefTable(context);
  const out: VerticalRecords = {};
  out.customers = each(scope, 'customers', block.customers, null, (record, path) =>
    pmsGuest(scope, data, record, path, guests),
  );
  out.orders = each(scope, 'orders', block.orders, null, (record, path) =>
    pmsOrder(scope, data, record, path, guests),
  );
  return out;
}
