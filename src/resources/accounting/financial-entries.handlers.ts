import type { RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../context.js';
import { postingContext, requireAccounting } from './accounting.context.js';
import {
  draftOf,
  draftOfOld,
  toFinancialEntryOldOut,
  toFinancialEntryOut,
} from './financial-entries.domain.js';
import type * as routes from './financial-entries.routes.js';
import { applyChange } from './ledger/posting.js';
import { buildFinancialEntry } from './ledger/treasury.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

export const createFinancialEntries: Handler<'createFinancialEntries'> = async (c) => {
  const { ledger } = requireAccounting(c, 'accounting_create_financial_entries');
  const ctx = postingContext(c);
  const input = c.req.valid('json');
  const draft = draftOf(input, c.req.valid('query').financial_counterpart_account);
  const { entry, counterpartAccount, change } = buildFinancialEntry(ledger, draft, ctx);
  applyChange(ledger, change, ctx.now);
  c.set('createdEntityId', entry.id);
  return c.json(toFinancialEntryOut(input, { id: entry.id, number: entry.number, counterpartAccount }), 200);
};

/** The deprecated shape: the integration must implement the current operation. */
export const createFinancialEntryOld: Handler<'createFinancialEntryOld'> = async (c) => {
  const { ledger } = requireAccounting(c, 'accounting_create_financial_entries');
  const ctx = postingContext(c);
  const input = c.req.valid('json');
  const draft = draftOfOld(input, c.req.valid('query').financial_counterpart_account);
  const { entry, counterpartAccount, change } = buildFinancialEntry(ledger, draft, ctx);
  applyChange(ledger, change, ctx.now);
  c.set('createdEntityId', entry.id);
  return c.json(
    toFinancialEntryOldOut(input, { id: entry.id, number: entry.number, counterpartAccount }),
    200,
  );
};
