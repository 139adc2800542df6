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
 * the stored ledger is declared in accounting.records.ts and seeded by accounting.seed.ts; the ledger
 * model's rules are in ./ledger.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/context.js';
import type { VerticalModule } from '../../platform/vertical-module.js';
import { registerAccountingClientRoutes } from './accounting.client-routes.js';
import { accountingExamples } from './accounting.examples.js';
import { accountingFixtures } from './accounting.fixtures.js';
import type { LedgerFolder, LedgerRecord } from './accounting.records.js';
import { accountingSamples } from './accounting.samples.js';
import * as analyticHandlers from './analytic-accounts.handlers.js';
import * as analyticRoutes from './analytic-accounts.routes.js';
import * as attachmentHandlers from './attachments.handlers.js';
import * as attachmentRoutes from './attachments.routes.js';
import * as bankHandlers from './bank.handlers.js';
import * as bankRoutes from './bank.routes.js';
import * as employeeHandlers from './employees.handlers.js';
import * as employeeRoutes from './employees.routes.js';
import * as entryHandlers from './entries.handlers.js';
import * as entryRoutes from './entries.routes.js';
import * as expenseHandlers from './expenses.handlers.js';
import * as expenseRoutes from './expenses.routes.js';
import * as exportHandlers from './exports.handlers.js';
import * as exportRoutes from './exports.routes.js';
import * as financialHandlers from './financial-entries.handlers.js';
import * as financialRoutes from './financial-entries.routes.js';
import * as invoiceHandlers from './invoices.handlers.js';
import * as invoiceRoutes from './invoices.routes.js';
import { buildLedger, foldersOf, LEDGERS, type LedgerArgs, ledgerOf } from './ledger/ledgers.js';
import * as miscellaneousHandlers from './miscellaneous.handlers.js';
import * as miscellaneousRoutes from './miscellaneous.routes.js';
import * as partnerHandlers from './partners.handlers.js';
import * as partnerRoutes from './partners.routes.js';
import * as referenceHandlers from './reference.handlers.js';
import * as referenceRoutes from './reference.routes.js';

/**
 * Registers the Accounting vertical under /consumers/{consumer_id}/accounting. Static path segments
 * are registered before the parameters they would shadow.
 */
export function registerAccounting(app: OpenAPIHono<AppEnv>): void {
  const r = referenceRoutes;
  const rh = referenceHandlers;
  app.openapi(r.getFolders, rh.getFolders);
  app.openapi(r.getFolder, rh.getFolder);
  app.openapi(r.getBookyears, rh.getBookyears);
  app.openapi(r.getAnalyticPlans, rh.getAnalyticPlans);
  app.openapi(r.getSchemes, rh.getSchemes);
  app.openapi(r.getVatCodes, rh.getVatCodes);
  app.openapi(r.getPaymentMethods, rh.getPaymentMethods);
  app.openapi(r.getPaymentTerms, rh.getPaymentTerms);
  app.openapi(r.getJournals, rh.getJournals);
  app.openapi(r.createJournal, rh.createJournalHandler);
  app.openapi(r.getChartOfAccounts, rh.getChartOfAccounts);
  app.openapi(r.getAccountsBalances, rh.getAccountsBalances);
  app.openapi(r.createLedgerAccount, rh.createLedgerAccountHandler);

  const p = partnerRoutes;
  const ph = partnerHandlers;
  app.openapi(p.getClients, ph.getClients);
  app.openapi(p.createClient, ph.createClient);
  app.openapi(p.getClient, ph.getClient);
  app.openapi(p.updateClient, ph.updateClient);
  app.openapi(p.getSuppliers, ph.getSuppliers);
  app.openapi(p.createSupplier, ph.createSupplier);
  app.openapi(p.getSupplier, ph.getSupplier);
  app.openapi(p.updateSupplier, ph.updateSupplier);
  app.openapi(p.getPartnerContacts, ph.getPartnerContacts);

  const i = invoiceRoutes;
  const ih = invoiceHandlers;
  app.openapi(i.createInvoice, ih.createInvoice);
  app.openapi(i.createInvoiceMultiplePlans, ih.createInvoiceMultiplePlans);
  app.openapi(i.createInvoicePayment, ih.createInvoicePayment);
  app.openapi(i.getInvoicesByType, ih.getInvoicesByType);
  app.openapi(i.getInvoicesByTypeMultiPlans, ih.getInvoicesByTypeMultiPlans);
  app.openapi(i.getPaymentsByInvoice, ih.getPaymentsByInvoice);
  app.openapi(i.getInvoiceMultiPlans, ih.getInvoiceMultiPlans);
  app.openapi(i.getInvoice, ih.getInvoice);

  const e = entryRoutes;
  const eh = entryHandlers;
  app.openapi(e.getJournalEntriesMultiPlan, eh.getJournalEntriesMultiPlan);
  app.openapi(e.getJournalEntries, eh.getJournalEntries);
  app.openapi(e.getJournalEntry, eh.getJournalEntry);
  app.openapi(e.createGenericJournalEntry, eh.createGenericJournalEntry);
  app.openapi(e.getOutstandings, eh.getOutstandings);
  app.openapi(e.matchEntries, eh.matchEntries);
  app.openapi(e.matchEntriesMultiple, eh.matchEntriesMultiple);
  app.openapi(e.createJournalEntry, eh.createJournalEntry);

  // Analytic accounts, miscellaneous operations, attachments, bank accounts and statements,
  // financial entries, expenses, employees and the FEC export.
  const a = analyticRoutes;
  const ah = analyticHandlers;
  app.openapi(a.getAnalyticAccounts, ah.getAnalyticAccounts);
  app.openapi(a.createAnalyticAccount, ah.createAnalyticAccount);
  app.openapi(a.getAnalyticAccountsMultiPlans, ah.getAnalyticAccountsMultiPlans);
  app.openapi(a.createAnalyticAccountMultiPlans, ah.createAnalyticAccountMultiPlans);
  app.openapi(a.getAnalyticAccount, ah.getAnalyticAccount);
  app.openapi(a.updateAnalyticAccount, ah.updateAnalyticAccount);
  app.openapi(a.getAnalyticAccountMultiPlans, ah.getAnalyticAccountMultiPlans);
  app.openapi(a.updateAnalyticAccountMultiPlans, ah.updateAnalyticAccountMultiPlans);

  const m = miscellaneousRoutes;
  const mh = miscellaneousHandlers;
  app.openapi(m.getMiscellaneousOperations, mh.getMiscellaneousOperations);
  app.openapi(m.createMiscellaneousOperation, mh.createMiscellaneousOperation);
  app.openapi(m.getMiscellaneousOperation, mh.getMiscellaneousOperation);

  app.openapi(attachmentRoutes.getAttachments, attachmentHandlers.getAttachments);
  app.openapi(attachmentRoutes.addAttachment, attachmentHandlers.addAttachment);

  app.openapi(bankRoutes.getBankAccounts, bankHandlers.getBankAccounts);
  app.openapi(bankRoutes.createBankAccount, bankHandlers.createBankAccount);
  app.openapi(bankRoutes.createBankTransactions, bankHandlers.createBankTransactions);

  app.openapi(financialRoutes.createFinancialEntries, financialHandlers.createFinancialEntries);
  app.openapi(financialRoutes.createFinancialEntryOld, financialHandlers.createFinancialEntryOld);
  app.openapi(expenseRoutes.createExpense, expenseHandlers.createExpense);
  app.openapi(employeeRoutes.getEmployees, employeeHandlers.getEmployees);
  app.openapi(exportRoutes.exportFec, exportHandlers.exportFec);

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
  api: 'Accounting',
  collection: LEDGERS,
  build: buildLedger,
  register: registerAccounting,
  fixtures: accountingFixtures,
  samples: accountingSamples,
  examples: accountingExamples,
  caches: () => ({ ledgerFolders: new Map() }),
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
export { AddressItemOut, AddressType, ItemAttachmentInfoOut } from './accounting.schemas.js';
export { AttachmentItemOut, ServicePage_AttachmentItemOut_ } from './attachments.schemas.js';
export { PaymentStatus } from './invoices.schemas.js';
export { VatCodeScope, VatCodeType } from './reference.schemas.js';
