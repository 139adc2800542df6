import type { Context } from 'hono';
import { paginate } from '../../../lib/pagination.js';
import type { AppEnv } from '../../../platform/context.js';
import { operation } from '../../../platform/operation.js';
import { writeContext } from '../../../platform/request-context.js';
import type { LedgerRecord } from '../model/accounting.records.js';
import { matchedCentsByLine } from '../model/ledger/derived.js';
import { applyChange, buildInvoice, buildInvoicePayment } from '../model/ledger/posting.js';
import { accountingLedger } from './accounting.context.js';
import { isTrue } from './accounting.schemas.js';
import {
  draftFromMono,
  draftFromMulti,
  draftPayment,
  listInvoices,
  paymentsOf,
  requireInvoice,
  toInvoiceItem,
} from './invoices.domain.js';
import * as routes from './invoices.routes.js';

/** What a created invoice answers: everything, its lines included. */
const CREATED = { lines: true, payments: true, partner: false };

const viewOptions = (query: {
  include_payments?: string | undefined;
  include_invoice_lines?: string | undefined;
  include_partner_info?: string | undefined;
}) => ({
  lines: isTrue(query.include_invoice_lines),
  payments: isTrue(query.include_payments),
  partner: isTrue(query.include_partner_info),
});

/** Books an invoice drafted from either shape: its entry and the created entity of the request. */
function bookInvoice(c: Context<AppEnv>, ledger: LedgerRecord, draft: Parameters<typeof buildInvoice>[1]) {
  const ctx = writeContext(c);
  const { invoice, change } = buildInvoice(ledger, draft, ctx);
  applyChange(ledger, change, ctx.now);
  c.set('createdEntityId', invoice.id);
  return invoice;
}

export const createInvoice = operation(accountingLedger, routes.createInvoice, (c, { data: { ledger } }) => {
  const draft = draftFromMono(ledger, c.req.valid('json'), c.req.valid('query'));
  return c.json(toInvoiceItem(ledger, bookInvoice(c, ledger, draft), 'mono', CREATED), 200);
});

export const createInvoiceMultiplePlans = operation(
  accountingLedger,
  routes.createInvoiceMultiplePlans,
  (c, { data: { ledger } }) => {
    const draft = draftFromMulti(c.req.valid('json'), c.req.valid('query'));
    return c.json(toInvoiceItem(ledger, bookInvoice(c, ledger, draft), 'multi', CREATED), 200);
  },
);

export const getInvoicesByType = operation(
  accountingLedger,
  routes.getInvoicesByType,
  (c, { data: { ledger } }) => {
    const query = c.req.valid('query');
    const matched = matchedCentsByLine(ledger);
    const invoices = listInvoices(ledger, c.req.valid('param').invoice_type, query, matched);
    const page = paginate(invoices, query.page, query.size);
    const options = viewOptions(query);
    return c.json(
      { ...page, items: page.items.map((inv) => toInvoiceItem(ledger, inv, 'mono', options, matched)) },
      200,
    );
  },
);

export const getInvoicesByTypeMultiPlans = operation(
  accountingLedger,
  routes.getInvoicesByTypeMultiPlans,
  (c, { data: { ledger } }) => {
    const query = c.req.valid('query');
    const matched = matchedCentsByLine(ledger);
    const invoices = listInvoices(ledger, c.req.valid('param').invoice_type, query, matched);
    const page = paginate(invoices, query.page, query.size);
    const options = viewOptions(query);
    return c.json(
      { ...page, items: page.items.map((inv) => toInvoiceItem(ledger, inv, 'multi', options, matched)) },
      200,
    );
  },
);

export const getInvoice = operation(accountingLedger, routes.getInvoice, (c, { data: { ledger } }) => {
  const invoice = requireInvoice(ledger, c.req.valid('param').invoice_id);
  return c.json(toInvoiceItem(ledger, invoice, 'mono', viewOptions(c.req.valid('query'))), 200);
});

export const getInvoiceMultiPlans = operation(
  accountingLedger,
  routes.getInvoiceMultiPlans,
  (c, { data: { ledger } }) => {
    const invoice = requireInvoice(ledger, c.req.valid('param').invoice_id);
    return c.json(toInvoiceItem(ledger, invoice, 'multi', viewOptions(c.req.valid('query'))), 200);
  },
);

export const createInvoicePayment = operation(
  accountingLedger,
  routes.createInvoicePayment,
  (c, { data: { ledger } }) => {
    const ctx = writeContext(c);
    const { entry, change } = buildInvoicePayment(ledger, draftPayment(c.req.valid('json')), ctx);
    applyChange(ledger, change, ctx.now);
    c.set('createdEntityId', entry.id);
    return c.body(null, 204);
  },
);

export const getPaymentsByInvoice = operation(
  accountingLedger,
  routes.getPaymentsByInvoice,
  (c, { data: { ledger } }) => {
    const { page, size } = c.req.valid('query');
    const invoice = requireInvoice(ledger, c.req.valid('param').invoice_id);
    return c.json(paginate(paymentsOf(ledger, invoice), page, size), 200);
  },
);
