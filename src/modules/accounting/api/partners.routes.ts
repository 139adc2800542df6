import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonContent, scopesFor, secured } from '../../../platform/openapi.js';
import { ConsumerIdParam, FolderQuery } from './accounting.schemas.js';
import {
  ClientIdParam,
  ClientItemIn,
  ClientItemOut,
  ClientItemUpdate,
  ContactsQuery,
  PartnerCreateQuery,
  PartnersQuery,
  ServicePage_ClientItemOut_,
  ServicePage_ContactItem_,
  ServicePage_SupplierItemOut_,
  SupplierIdParam,
  SupplierItemIn,
  SupplierItemOut,
  SupplierItemUpdate,
} from './partners.schemas.js';

const base = '/consumers/{consumer_id}/accounting';
const errors = errorResponses([400, 401, 404, 422]);

export const getClients = createRoute({
  method: 'get',
  path: `${base}/clients`,
  operationId: 'accounting_get_clients',
  tags: ['Accounting'],
  summary: 'List the clients of the folder',
  ...secured('consumer', scopesFor('accounting', 'clients', 'read')),
  request: { params: ConsumerIdParam, query: PartnersQuery },
  responses: { 200: jsonContent(ServicePage_ClientItemOut_, 'The clients, by code'), ...errors },
});

export const createClient = createRoute({
  method: 'post',
  path: `${base}/clients`,
  operationId: 'accounting_create_client',
  tags: ['Accounting'],
  summary: 'Create a client',
  ...secured('consumer', scopesFor('accounting', 'clients', 'write')),
  request: {
    params: ConsumerIdParam,
    query: PartnerCreateQuery,
    body: jsonBody(ClientItemIn, 'The new client'),
  },
  responses: { 200: jsonContent(ClientItemOut, 'The created client'), ...errors },
});

export const getClient = createRoute({
  method: 'get',
  path: `${base}/clients/{client_id}`,
  operationId: 'accounting_get_client',
  tags: ['Accounting'],
  summary: 'Get one client',
  ...secured('consumer', scopesFor('accounting', 'clients', 'read')),
  request: { params: ClientIdParam, query: FolderQuery },
  responses: { 200: jsonContent(ClientItemOut, 'The client'), ...errors },
});

export const updateClient = createRoute({
  method: 'patch',
  path: `${base}/clients/{client_id}`,
  operationId: 'accounting_update_client',
  tags: ['Accounting'],
  summary: 'Update one client',
  ...secured('consumer', scopesFor('accounting', 'clients', 'write')),
  request: {
    params: ClientIdParam,
    query: FolderQuery,
    body: jsonBody(ClientItemUpdate, 'The fields to change'),
  },
  responses: { 200: jsonContent(ClientItemOut, 'The updated client'), ...errors },
});

export const getSuppliers = createRoute({
  method: 'get',
  path: `${base}/suppliers`,
  operationId: 'accounting_get_suppliers',
  tags: ['Accounting'],
  summary: 'List the suppliers of the folder',
  ...secured('consumer', scopesFor('accounting', 'suppliers', 'read')),
  request: { params: ConsumerIdParam, query: PartnersQuery },
  responses: { 200: jsonContent(ServicePage_SupplierItemOut_, 'The suppliers, by code'), ...errors },
});

export const createSupplier = createRoute({
  method: 'post',
  path: `${base}/suppliers`,
  operationId: 'accounting_create_supplier',
  tags: ['Accounting'],
  summary: 'Create a supplier',
  ...secured('consumer', scopesFor('accounting', 'suppliers', 'write')),
  request: {
    params: ConsumerIdParam,
    query: PartnerCreateQuery,
    body: jsonBody(SupplierItemIn, 'The new supplier'),
  },
  responses: { 200: jsonContent(SupplierItemOut, 'The created supplier'), ...errors },
});

export const getSupplier = createRoute({
  method: 'get',
  path: `${base}/suppliers/{supplier_id}`,
  operationId: 'accounting_get_supplier',
  tags: ['Accounting'],
  summary: 'Get one supplier',
  ...secured('consumer', scopesFor('accounting', 'suppliers', 'read')),
  request: { params: SupplierIdParam, query: FolderQuery },
  responses: { 200: jsonContent(SupplierItemOut, 'The supplier'), ...errors },
});

export const updateSupplier = createRoute({
  method: 'patch',
  path: `${base}/suppliers/{supplier_id}`,
  operationId: 'accounting_update_supplier',
  tags: ['Accounting'],
  summary: 'Update one supplier',
  ...secured('consumer', scopesFor('accounting', 'suppliers', 'write')),
  request: {
    params: SupplierIdParam,
    query: FolderQuery,
    body: jsonBody(SupplierItemUpdate, 'The fields to change'),
  },
  responses: { 200: jsonContent(SupplierItemOut, 'The updated supplier'), ...errors },
});

export const getPartnerContacts = createRoute({
  method: 'get',
  path: `${base}/contacts`,
  operationId: 'accounting_get_partner_contacts',
  tags: ['Accounting'],
  summary: 'List the contact persons of a client or supplier',
  ...secured('consumer', scopesFor('accounting', 'contacts', 'read')),
  request: { params: ConsumerIdParam, query: ContactsQuery },
  responses: { 200: jsonContent(ServicePage_ContactItem_, 'The contacts, by name'), ...errors },
});
