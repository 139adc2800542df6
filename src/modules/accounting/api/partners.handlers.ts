import type { Context } from 'hono';
import { paginate } from '../../../lib/pagination.js';
import type { AppEnv } from '../../../platform/context.js';
import { type OperationScope, operation } from '../../../platform/operation.js';
import { writeContext } from '../../../platform/request-context.js';
import type { LedgerRecord } from '../model/accounting.records.js';
import type { PartnerRole } from '../model/ledger/rules.js';
import { type AccountingLedger, accountingLedger } from './accounting.context.js';
import {
  contactsOf,
  createPartner,
  listPartners,
  requirePartnerOfRole,
  toContactItem,
  toPartnerItem,
  updatePartner,
} from './partners.domain.js';
import * as routes from './partners.routes.js';
import type { PartnerInInput, PartnerUpdateInput } from './partners.schemas.js';

/** Clients and suppliers are partners of one model: each operation below names its role. */
type Scope = OperationScope<AccountingLedger>;

function list(
  ledger: LedgerRecord,
  role: PartnerRole,
  query: { page: number; size: number; search?: string | undefined; updated_after?: string | undefined },
) {
  const items = listPartners(ledger, role, query).map((p) => toPartnerItem(p, role));
  return paginate(items, query.page, query.size);
}

function create(
  c: Context<AppEnv>,
  { integration, data }: Scope,
  role: PartnerRole,
  input: PartnerInInput,
  forceMerge: string | undefined,
) {
  const partner = createPartner(data.ledger, integration, role, input, forceMerge, writeContext(c));
  c.set('createdEntityId', partner.id);
  return toPartnerItem(partner, role);
}

function one(ledger: LedgerRecord, role: PartnerRole, id: string) {
  return toPartnerItem(requirePartnerOfRole(ledger, role, id), role);
}

function update(
  c: Context<AppEnv>,
  { integration, data }: Scope,
  role: PartnerRole,
  id: string,
  input: PartnerUpdateInput,
) {
  const partner = requirePartnerOfRole(data.ledger, role, id);
  updatePartner(data.ledger, integration, partner, role, input, c.get('clock').now().toISOString());
  return toPartnerItem(partner, role);
}

export const getClients = operation(accountingLedger, routes.getClients, (c, { data }) =>
  c.json(list(data.ledger, 'client', c.req.valid('query')), 200),
);

export const createClient = operation(accountingLedger, routes.createClient, (c, scope) =>
  c.json(create(c, scope, 'client', c.req.valid('json'), c.req.valid('query').force_merge), 200),
);

export const getClient = operation(accountingLedger, routes.getClient, (c, { data }) =>
  c.json(one(data.ledger, 'client', c.req.valid('param').client_id), 200),
);

export const updateClient = operation(accountingLedger, routes.updateClient, (c, scope) =>
  c.json(update(c, scope, 'client', c.req.valid('param').client_id, c.req.valid('json')), 200),
);

export const getSuppliers = operation(accountingLedger, routes.getSuppliers, (c, { data }) =>
  c.json(list(data.ledger, 'supplier', c.req.valid('query')), 200),
);

export const createSupplier = operation(accountingLedger, routes.createSupplier, (c, scope) =>
  c.json(create(c, scope, 'supplier', c.req.valid('json'), c.req.valid('query').force_merge), 200),
);

export const getSupplier = operation(accountingLedger, routes.getSupplier, (c, { data }) =>
  c.json(one(data.ledger, 'supplier', c.req.valid('param').supplier_id), 200),
);

export const updateSupplier = operation(accountingLedger, routes.updateSupplier, (c, scope) =>
  c.json(update(c, scope, 'supplier', c.req.valid('param').supplier_id, c.req.valid('json')), 200),
);

export const getPartnerContacts = operation(accountingLedger, routes.getPartnerContacts, (c, { data }) => {
  const { page, size, partner_type, partner_id } = c.req.valid('query');
  return c.json(
    paginate(contactsOf(data.ledger, partner_type, partner_id).map(toContactItem), page, size),
    200,
  );
});
