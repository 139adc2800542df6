import type { RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../context.js';
import { paginate } from '../../lib/pagination.js';
import { postingContext, requireAccounting } from './accounting.context.js';
import type { PartnerRole } from './ledger/rules.js';
import {
  contactsOf,
  createPartner,
  listPartners,
  requirePartnerOfRole,
  toContactItem,
  toPartnerItem,
  updatePartner,
} from './partners.domain.js';
import type * as routes from './partners.routes.js';
import type { PartnerInInput, PartnerUpdateInput } from './partners.schemas.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

function list(
  c: Context<AppEnv>,
  role: PartnerRole,
  query: { page: number; size: number; search?: string | undefined; updated_after?: string | undefined },
) {
  const { ledger } = requireAccounting(
    c,
    role === 'client' ? 'accounting_get_clients' : 'accounting_get_suppliers',
  );
  const items = listPartners(ledger, role, query).map((p) => toPartnerItem(p, role));
  return paginate(items, query.page, query.size);
}

async function create(
  c: Context<AppEnv>,
  role: PartnerRole,
  input: PartnerInInput,
  forceMerge: string | undefined,
) {
  const { ledger, integration } = requireAccounting(
    c,
    role === 'client' ? 'accounting_create_client' : 'accounting_create_supplier',
  );
  const partner = createPartner(ledger, integration, role, input, forceMerge, postingContext(c));
  c.set('createdEntityId', partner.id);
  return toPartnerItem(partner, role);
}

function one(c: Context<AppEnv>, role: PartnerRole, id: string) {
  const { ledger } = requireAccounting(
    c,
    role === 'client' ? 'accounting_get_client' : 'accounting_get_supplier',
  );
  return toPartnerItem(requirePartnerOfRole(ledger, role, id), role);
}

async function update(c: Context<AppEnv>, role: PartnerRole, id: string, input: PartnerUpdateInput) {
  const { ledger, integration } = requireAccounting(
    c,
    role === 'client' ? 'accounting_update_client' : 'accounting_update_supplier',
  );
  const partner = requirePartnerOfRole(ledger, role, id);
  updatePartner(ledger, integration, partner, role, input, c.var.clock.now().toISOString());
  return toPartnerItem(partner, role);
}

export const getClients: Handler<'getClients'> = (c) => c.json(list(c, 'client', c.req.valid('query')), 200);

export const createClient: Handler<'createClient'> = async (c) =>
  c.json(await create(c, 'client', c.req.valid('json'), c.req.valid('query').force_merge), 200);

export const getClient: Handler<'getClient'> = (c) =>
  c.json(one(c, 'client', c.req.valid('param').client_id), 200);

export const updateClient: Handler<'updateClient'> = async (c) =>
  c.json(await update(c, 'client', c.req.valid('param').client_id, c.req.valid('json')), 200);

export const getSuppliers: Handler<'getSuppliers'> = (c) =>
  c.json(list(c, 'supplier', c.req.valid('query')), 200);

export const createSupplier: Handler<'createSupplier'> = async (c) =>
  c.json(await create(c, 'supplier', c.req.valid('json'), c.req.valid('query').force_merge), 200);

export const getSupplier: Handler<'getSupplier'> = (c) =>
  c.json(one(c, 'supplier', c.req.valid('param').supplier_id), 200);

export const updateSupplier: Handler<'updateSupplier'> = async (c) =>
  c.json(await update(c, 'supplier', c.req.valid('param').supplier_id, c.req.valid('json')), 200);

export const getPartnerContacts: Handler<'getPartnerContacts'> = (c) => {
  const { ledger } = requireAccounting(c, 'accounting_get_partner_contacts');
  const { page, size, partner_type, partner_id } = c.req.valid('query');
  return c.json(paginate(contactsOf(ledger, partner_type, partner_id).map(toContactItem), page, size), 200);
};
