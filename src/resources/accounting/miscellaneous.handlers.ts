import type { RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../context.js';
import { paginate } from '../../lib/pagination.js';
import { postingContext, requireAccounting } from './accounting.context.js';
import { matchedCentsByLine } from './ledger/derived.js';
import { buildMiscellaneousOperation } from './ledger/documents.js';
import { applyChange } from './ledger/posting.js';
import { draftOf, listOperations, requireOperation, toOperation } from './miscellaneous.domain.js';
import type * as routes from './miscellaneous.routes.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

export const getMiscellaneousOperations: Handler<'getMiscellaneousOperations'> = (c) => {
  const { ledger } = requireAccounting(c, 'accounting_get_miscellaneous_operations');
  const query = c.req.valid('query');
  const page = paginate(listOperations(ledger, query), query.page, query.size);
  const matched = matchedCentsByLine(ledger);
  return c.json({ ...page, items: page.items.map((e) => toOperation(ledger, e, matched)) }, 200);
};

export const getMiscellaneousOperation: Handler<'getMiscellaneousOperation'> = (c) => {
  const { ledger } = requireAccounting(c, 'accounting_get_miscellaneous_operation');
  const entry = requireOperation(ledger, c.req.valid('param').operation_id);
  return c.json(toOperation(ledger, entry), 200);
};

export const createMiscellaneousOperation: Handler<'createMiscellaneousOperation'> = async (c) => {
  const { ledger } = requireAccounting(c, 'accounting_create_miscellaneous_operation');
  const ctx = postingContext(c);
  const { entry, change } = buildMiscellaneousOperation(ledger, draftOf(c.req.valid('json')), ctx);
  applyChange(ledger, change, ctx.now);
  c.set('createdEntityId', entry.id);
  return c.json(toOperation(ledger, entry), 200);
};
