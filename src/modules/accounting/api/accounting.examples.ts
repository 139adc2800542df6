import { verticalExamples } from '../../../platform/examples.js';
import { entryExamples } from './examples/entries.js';
import { accountingOf, ledgerScopeOf } from './examples/ledger-reads.js';
import { partnerAndInvoiceExamples } from './examples/partners-and-invoices.js';
import { treasuryExamples } from './examples/treasury.js';

/**
 * The request body examples of the Accounting operations (see platform/examples.ts): read off the
 * first folder's ledger of the consumer /docs prefills for accounting paths, through the ledger
 * functions the routes use (its VAT codes, accounts, journals, partners, open invoices).
 */

/** The examples of the Accounting operations, by operationId. */
export const accountingExamples = verticalExamples(
  { ...partnerAndInvoiceExamples, ...entryExamples, ...treasuryExamples },
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
