import { operation } from '../../../platform/operation.js';
import { writeContext } from '../../../platform/request-context.js';
import { applyChange } from '../model/ledger/posting.js';
import { buildFinancialEntry } from '../model/ledger/treasury.js';
import { accountingLedger } from './accounting.context.js';
import {
  draftOf,
  draftOfOld,
  toFinancialEntryOldOut,
  toFinancialEntryOut,
} from './financial-entries.domain.js';
import * as routes from './financial-entries.routes.js';

export const createFinancialEntries = operation(
  accountingLedger,
  routes.createFinancialEntries,
  (c, { data: { ledger } }) => {
    const ctx = writeContext(c);
    const input = c.req.valid('json');
    const draft = draftOf(input, c.req.valid('query').financial_counterpart_account);
    const { entry, counterpartAccount, change } = buildFinancialEntry(ledger, draft, ctx);
    applyChange(ledger, change, ctx.now);
    c.set('createdEntityId', entry.id);
    return c.json(
      toFinancialEntryOut(input, {
        id: entry.id,
        number: entry.number,
        counterpartAccount,
        rate: entry.currency_exchange_rate,
      }),
      200,
    );
  },
);

/** The deprecated shape: the integration must implement the current operation. */
export const createFinancialEntryOld = operation(
  accountingLedger,
  routes.createFinancialEntryOld,
  (c, { data: { ledger } }) => {
    const ctx = writeContext(c);
    const input = c.req.valid('json');
    const draft = draftOfOld(input, c.req.valid('query').financial_counterpart_account);
    const { entry, counterpartAccount, change } = buildFinancialEntry(ledger, draft, ctx);
    applyChange(ledger, change, ctx.now);
    c.set('createdEntityId', entry.id);
    return c.json(
      toFinancialEntryOldOut(input, {
        id: entry.id,
        number: entry.number,
        counterpartAccount,
        rate: entry.currency_exchange_rate,
      }),
      200,
    );
  },
  routes.createFinancialEntries,
);
