/**
 * The Accounting vertical: every path under /consumers/{consumer_id}/accounting/, by its first
 * segment, and the file that holds its routes (<name>.routes.ts), handlers (<name>.handlers.ts),
 * domain rules (<name>.domain.ts) and wire shapes (<name>.schemas.ts):
 *
 *   folders, folders/{folder_id}                        reference
 *   bookyears, analytic-plans, schemes, vat-codes       reference
 *   payment-methods, payment-terms                      reference
 *   journals (list), journal (POST: create a journal)   reference
 *   chart-of-accounts, chart-of-accounts/balance        reference
 *   accounts (POST: create a ledger account)            reference
 *   clients, suppliers, contacts                        partners
 *   invoices (create, by type, one, payments...)        invoices
 *   invoices/pdf/{invoice_id} (attach a PDF)            attachments
 *   attachments                                         attachments
 *   journal/entries, journal-entries                    entries
 *   outstandings, matching, matching-multiple           entries
 *   analytic-accounts                                   analytic-accounts
 *   miscellaneous-operation                             miscellaneous
 *   bank-accounts, bank-transactions                    bank
 *   financial-entries, financial-entry (deprecated)     financial-entries
 *   expenses                                            expenses
 *   employees                                           employees
 *   export-fec                                          exports
 *   chart-of-accounts/{number}, journals/{journal_id},  accounting.client-routes (routes the
 *   attachments (POST), batch/invoices, custom/...      official clients call, undocumented)
 *
 * What every operation starts from (the consumer, its accounting connection, the integration's
 * coverage, then the folders or the request's folder and its ledger) is in accounting.context.ts;
 * the stored ledger is declared in accounting.records.ts and seeded by accounting.seed.ts (its record
 * kinds in ./seed, the country profiles in ./countries), its business after the history goes on with
 * the clock in accounting.living.ts; the ledger model's rules are in ./ledger.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import { oneApi } from '../../platform/catalogue.js';
import type { AppEnv } from '../../platform/context.js';
import { registerOperations } from '../../platform/operation.js';
import type { VerticalModule } from '../../platform/vertical-module.js';
import { registerAccountingClientRoutes } from './api/accounting.client-routes.js';
import { accountingExamples } from './api/accounting.examples.js';
import { accountingFixtures } from './api/accounting.fixtures.js';
import { accountingSamples } from './api/accounting.samples.js';
import * as analyticHandlers from './api/analytic-accounts.handlers.js';
import * as attachmentHandlers from './api/attachments.handlers.js';
import * as bankHandlers from './api/bank.handlers.js';
import * as employeeHandlers from './api/employees.handlers.js';
import * as entryHandlers from './api/entries.handlers.js';
import * as expenseHandlers from './api/expenses.handlers.js';
import * as exportHandlers from './api/exports.handlers.js';
import * as financialHandlers from './api/financial-entries.handlers.js';
import * as invoiceHandlers from './api/invoices.handlers.js';
import * as miscellaneousHandlers from './api/miscellaneous.handlers.js';
import * as partnerHandlers from './api/partners.handlers.js';
import * as referenceHandlers from './api/reference.handlers.js';
import type { LedgerFolder, LedgerRecord } from './model/accounting.records.js';
import { foldersOf, LEDGERS, type LedgerArgs, ledgerBuild, ledgerOf } from './world/ledgers.js';

/**
 * Registers the Accounting vertical under /consumers/{consumer_id}/accounting. Static path segments
 * are registered before the parameters they would shadow.
 */
export function registerAccounting(app: OpenAPIHono<AppEnv>): void {
  const rh = referenceHandlers;
  registerOperations(app, [
    rh.getFolders,
    rh.getFolder,
    rh.getBookyears,
    rh.getAnalyticPlans,
    rh.getSchemes,
    rh.getVatCodes,
    rh.getPaymentMethods,
    rh.getPaymentTerms,
    rh.getJournals,
    rh.createJournalHandler,
    rh.getChartOfAccounts,
    rh.getAccountsBalances,
    rh.createLedgerAccountHandler,
  ]);

  const ph = partnerHandlers;
  registerOperations(app, [
    ph.getClients,
    ph.createClient,
    ph.getClient,
    ph.updateClient,
    ph.getSuppliers,
    ph.createSupplier,
    ph.getSupplier,
    ph.updateSupplier,
    ph.getPartnerContacts,
  ]);

  const ih = invoiceHandlers;
  registerOperations(app, [
    ih.createInvoice,
    ih.createInvoiceMultiplePlans,
    ih.createInvoicePayment,
    ih.getInvoicesByType,
    ih.getInvoicesByTypeMultiPlans,
    ih.getPaymentsByInvoice,
    ih.getInvoiceMultiPlans,
    ih.getInvoice,
  ]);

  const eh = entryHandlers;
  registerOperations(app, [
    eh.getJournalEntriesMultiPlan,
    eh.getJournalEntries,
    eh.getJournalEntry,
    eh.createGenericJournalEntry,
    eh.getOutstandings,
    eh.matchEntries,
    eh.matchEntriesMultiple,
    eh.createJournalEntry,
  ]);

  // Analytic accounts, miscellaneous operations, attachments, bank accounts and statements,
  // financial entries, expenses, employees and the FEC export.
  const ah = analyticHandlers;
  registerOperations(app, [
    ah.getAnalyticAccounts,
    ah.createAnalyticAccount,
    ah.getAnalyticAccountsMultiPlans,
    ah.createAnalyticAccountMultiPlans,
    ah.getAnalyticAccount,
    ah.updateAnalyticAccount,
    ah.getAnalyticAccountMultiPlans,
    ah.updateAnalyticAccountMultiPlans,
  ]);

  const mh = miscellaneousHandlers;
  registerOperations(app, [
    mh.getMiscellaneousOperations,
    mh.createMiscellaneousOperation,
    mh.getMiscellaneousOperation,
  ]);

  registerOperations(app, [attachmentHandlers.getAttachments, attachmentHandlers.addAttachment]);

  registerOperations(app, [
    bankHandlers.getBankAccounts,
    bankHandlers.createBankAccount,
    bankHandlers.createBankTransactions,
  ]);

  registerOperations(app, [
    financialHandlers.createFinancialEntries,
    financialHandlers.createFinancialEntryOld,
    expenseHandlers.createExpense,
    employeeHandlers.getEmployees,
    exportHandlers.exportFec,
  ]);

  // Routes the official clients call beyond the published document.
  registerAccountingClientRoutes(app);
}

declare module '../../platform/context.js' {
  interface AppCaches {
    /** The folders of a consumer's accounting integration, by seed, consumer and integration. */
    ledgerFolders: Map<string, LedgerFolder[]>;
  }
}

/** The Accounting vertical, as the app composes it (src/verticals.ts). */
export const accountingModule: VerticalModule<LedgerRecord, LedgerArgs> = {
  key: 'accounting',
  ...oneApi('Accounting'),
  envName: 'ACCOUNTING',
  showcase: 1000,
  collection: LEDGERS,
  build: ledgerBuild,
  lives: true,
  register: registerAccounting,
  fixtures: accountingFixtures,
  samples: accountingSamples,
  examples: accountingExamples,
  caches: { ledgerFolders: () => new Map() },
  choices: {
    // The journals of an accounting integration's folders (what GET .../accounting/journals answers).
    journals: ({ store, caches }, integration, consumerid) => {
      if (integration.api !== 'Accounting') return null;
      const folders = foldersOf(caches.ledgerFolders, store.world.meta.seed, consumerid, integration);
      return folders.flatMap((folder) =>
        Object.values(ledgerOf(store, consumerid, integration, folder).journals)
          .filter((journal) => !journal.blocked)
          .map((journal) => ({
            value: journal.id,
            label: `${folders.length > 1 ? `${folder.name}: ` : ''}${journal.code} ${journal.name}`,
          })),
      );
    },
  },
};

// What other modules use of this one.
export { AddressItemOut, AddressType, ItemAttachmentInfoOut } from './api/accounting.schemas.js';
export { AttachmentItemOut, ServicePage_AttachmentItemOut_ } from './api/attachments.schemas.js';
export { PaymentStatus } from './api/invoices.schemas.js';
export { VatCodeScope, VatCodeType } from './api/reference.schemas.js';
