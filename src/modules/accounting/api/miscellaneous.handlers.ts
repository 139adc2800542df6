import { paginate } from '../../../lib/pagination.js';
import { operation } from '../../../platform/operation.js';
import { writeContext } from '../../../platform/request-context.js';
import { matchedCentsByLine } from '../model/ledger/derived.js';
import { buildMiscellaneousOperation } from '../model/ledger/documents.js';
import { applyChange } from '../model/ledger/posting.js';
import { accountingLedger } from './accounting.context.js';
import { draftOf, listOperations, requireOperation, toOperation } from './miscellaneous.domain.js';
import * as routes from './miscellaneous.routes.js';

export const getMiscellaneousOperations = operation(
  accountingLedger,
  routes.getMiscellaneousOperations,
  (c, { data: { ledger } }) => {
    const query = c.req.valid('query');
    const page = paginate(listOperations(ledger, query), query.page, query.size);
    const matched = matchedCentsByLine(ledger);
    return c.json({ ...page, items: page.items.map((e) => toOperation(ledger, e, matched)) }, 200);
  },
);

export const getMiscellaneousOperation = operation(
  accountingLedger,
  routes.getMiscellaneousOperation,
  (c, { data: { ledger } }) => {
    const entry = requireOperation(ledger, c.req.valid('param').operation_id);
    return c.json(toOperation(ledger, entry), 200);
  },
);

export const createMiscellaneousOperation = operation(
  accountingLedger,
  routes.createMiscellaneousOperation,
  (c, { data: { ledger } }) => {
    const ctx = writeContext(c);
    const { entry, change } = buildMiscellaneousOperation(ledger, draftOf(c.req.valid('json')), ctx);
    applyChange(ledger, change, ctx.now);
    c.set('createdEntityId', entry.id);
    return c.json(toOperation(ledger, entry), 200);
  },
);
