import { ApiError } from '../../../lib/errors.js';
import { paginate } from '../../../lib/pagination.js';
import { operation } from '../../../platform/operation.js';
import { writeContext } from '../../../platform/request-context.js';
import { matchingNumbersByLine } from '../model/ledger/derived.js';
import { applyChange, buildJournalEntry, buildMatching } from '../model/ledger/posting.js';
import { accountingLedger } from './accounting.context.js';
import {
  draftFromGeneric,
  draftFromLegacy,
  listEntries,
  outstandingItems,
  requireEntry,
  toJournalEntry,
} from './entries.domain.js';
import * as routes from './entries.routes.js';

export const getJournalEntries = operation(
  accountingLedger,
  routes.getJournalEntries,
  (c, { data: { ledger } }) => {
    const query = c.req.valid('query');
    const page = paginate(listEntries(ledger, query), query.page, query.size);
    const numbers = matchingNumbersByLine(ledger);
    return c.json({ ...page, items: page.items.map((e) => toJournalEntry(ledger, e, 'mono', numbers)) }, 200);
  },
);

export const getJournalEntriesMultiPlan = operation(
  accountingLedger,
  routes.getJournalEntriesMultiPlan,
  (c, { data: { ledger } }) => {
    const query = c.req.valid('query');
    const page = paginate(listEntries(ledger, query), query.page, query.size);
    const numbers = matchingNumbersByLine(ledger);
    return c.json(
      { ...page, items: page.items.map((e) => toJournalEntry(ledger, e, 'multi', numbers)) },
      200,
    );
  },
);

export const getJournalEntry = operation(
  accountingLedger,
  routes.getJournalEntry,
  (c, { data: { ledger } }) => {
    const entry = requireEntry(ledger, c.req.valid('param').journal_entry_id);
    return c.json(toJournalEntry(ledger, entry, 'multi'), 200);
  },
);

export const createGenericJournalEntry = operation(
  accountingLedger,
  routes.createGenericJournalEntry,
  (c, { data: { ledger } }) => {
    const ctx = writeContext(c);
    const { entry, change } = buildJournalEntry(ledger, draftFromGeneric(c.req.valid('json')), ctx);
    applyChange(ledger, change, ctx.now);
    c.set('createdEntityId', entry.id);
    return c.json(toJournalEntry(ledger, entry, 'multi'), 200);
  },
);

/** The deprecated shape: the integration must implement the current operation. */
export const createJournalEntry = operation(
  accountingLedger,
  routes.createJournalEntry,
  (c, { data: { ledger } }) => {
    const ctx = writeContext(c);
    const { entry, change } = buildJournalEntry(ledger, draftFromLegacy(ledger, c.req.valid('json')), ctx);
    applyChange(ledger, change, ctx.now);
    c.set('createdEntityId', entry.id);
    return c.json(toJournalEntry(ledger, entry, 'multi'), 200);
  },
  routes.createGenericJournalEntry,
);

export const getOutstandings = operation(
  accountingLedger,
  routes.getOutstandings,
  (c, { data: { ledger } }) => {
    const { page, size, type, unposted_allowed } = c.req.valid('query');
    return c.json(paginate(outstandingItems(ledger, type, unposted_allowed === 'true'), page, size), 200);
  },
);

export const matchEntries = operation(accountingLedger, routes.matchEntries, (c, { data: { ledger } }) => {
  const ctx = writeContext(c);
  const { entries, partner_id } = c.req.valid('json');
  const { matching, balance, change } = buildMatching(ledger, entries, partner_id, ctx, ctx.now.slice(0, 10));
  applyChange(ledger, change, ctx.now);
  c.set('createdEntityId', matching.number);
  return c.json({ matching_number: matching.number, balance }, 200);
});

/** Each matching is checked and made on its own: a refused one is reported and the others go on. */
export const matchEntriesMultiple = operation(
  accountingLedger,
  routes.matchEntriesMultiple,
  (c, { data: { ledger } }) => {
    const ctx = writeContext(c);
    const results = c.req.valid('json').matchings.map((request) => {
      try {
        const { matching, change } = buildMatching(
          ledger,
          request.entries,
          request.partner_id,
          ctx,
          ctx.now.slice(0, 10),
        );
        applyChange(ledger, change, ctx.now);
        return { matching_number: matching.number, processed: true, error_msg: null };
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        return { matching_number: null, processed: false, error_msg: { ...error.toBody() } };
      }
    });
    return c.json(results, 200);
  },
);
