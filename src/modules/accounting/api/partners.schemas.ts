import { z } from '@hono/zod-openapi';
import { pageQuery, servicePage } from '../../../lib/pagination.js';
import { AddressItemIn, AddressItemOut, BankAccountsItem, folderIdParam } from './accounting.schemas.js';

/** Clients, suppliers and their contacts. Clients and suppliers share one shape per direction. */

const nullableString = () => z.string().nullable().optional();

/** The fields a partner is described by, in every shape. */
const partnerFields = {
  external_reference: nullableString().openapi({ description: "The vendor's own id of the partner" }),
  first_name: nullableString().openapi({ description: 'First name of an individual' }),
  last_name: nullableString().openapi({ description: 'Last name of an individual' }),
  function: nullableString(),
  company_id: nullableString().openapi({
    description: 'Id of the company (a partner of the folder) an individual works for',
  }),
  phone: nullableString(),
  mobile: nullableString(),
  email: nullableString(),
  language: nullableString().openapi({ description: 'ISO 639-1 language code' }),
  internal_notes: nullableString(),
  website: nullableString(),
  vat: nullableString().openapi({ description: 'VAT number: country prefix and digits, e.g. BE0123456789' }),
  company_number: nullableString(),
  iban: nullableString(),
  bank_account: nullableString(),
  currency: nullableString(),
};

const partnerIn = z.object({
  ...partnerFields,
  name: z.string().min(1),
  is_company: z.boolean().nullable().default(true),
  active: z.boolean().nullable().default(true),
  addresses: z.array(AddressItemIn),
  account_number: nullableString().openapi({
    description: 'Receivable (client) or payable (supplier) account; default: the collective account',
  }),
});

export const ClientItemIn = partnerIn.openapi('ClientItemIn', { description: 'A new client' });
export const SupplierItemIn = partnerIn.openapi('SupplierItemIn', { description: 'A new supplier' });

const partnerOut = z.object({
  ...partnerFields,
  name: nullableString(),
  is_company: z.boolean().nullable().optional(),
  active: z.boolean().nullable().optional(),
  account_number: nullableString(),
  id: nullableString(),
  last_updated_on: z.string().nullable().optional().openapi({ format: 'date-time' }),
  addresses: z.array(AddressItemOut).nullable().optional(),
  third_party_account: nullableString().openapi({ description: "The partner's code in the software" }),
  bank_accounts: z.array(BankAccountsItem).nullable().optional(),
});

export const ClientItemOut = partnerOut.openapi('ClientItemOut', { description: 'A client' });
export const SupplierItemOut = partnerOut.openapi('SupplierItemOut', { description: 'A supplier' });
export const Partner = partnerOut.openapi('Partner', { description: 'The client or supplier of an invoice' });

// No defaults in the update shape: a field left out is left as it is.
const partnerUpdate = z.object({
  ...partnerFields,
  name: nullableString(),
  is_company: z.boolean().nullable().optional(),
  active: z.boolean().nullable().optional(),
  addresses: z.array(AddressItemOut).nullable().optional().openapi({ description: 'Replaces the addresses' }),
});

export const ClientItemUpdate = partnerUpdate.openapi('ClientItemUpdate', {
  description: 'Changes to a client',
});
export const SupplierItemUpdate = partnerUpdate.openapi('SupplierItemUpdate', {
  description: 'Changes to a supplier',
});

export const PartnerType = z.enum(['client', 'supplier']).openapi('PartnerType-Input');

export const ContactItem = z
  .object({
    id: z.string(),
    name: z.string(),
    first_name: nullableString(),
    last_name: nullableString(),
    function: nullableString(),
    email: nullableString(),
    phone: nullableString(),
    mobile: nullableString(),
  })
  .openapi('ContactItem', { description: 'A contact person of a partner' });

export const ServicePage_ClientItemOut_ = servicePage(ClientItemOut, 'ClientItemOut');
export const ServicePage_SupplierItemOut_ = servicePage(SupplierItemOut, 'SupplierItemOut');
export const ServicePage_ContactItem_ = servicePage(ContactItem, 'ContactItem');

export const PartnersQuery = pageQuery({
  folder_id: folderIdParam,
  search: z
    .string()
    .optional()
    .openapi({
      param: { name: 'search', in: 'query' },
      description: 'Part of the name, e-mail, VAT number, code or external reference',
    }),
  updated_after: z.iso
    .datetime({ offset: true, local: true })
    .optional()
    .openapi({ param: { name: 'updated_after', in: 'query' }, description: 'Only partners changed after' }),
});

export const PartnerCreateQuery = z.object({
  folder_id: folderIdParam,
  force_merge: z
    .string()
    .optional()
    .openapi({
      param: { name: 'force_merge', in: 'query' },
      description: 'Id of the partner of the other role to merge into the new one (unified partners only)',
    }),
});

export const ClientIdParam = z.object({
  consumer_id: z
    .uuid()
    .openapi({ param: { name: 'consumer_id', in: 'path' }, description: 'Id of the consumer' }),
  client_id: z
    .string()
    .openapi({ param: { name: 'client_id', in: 'path' }, description: 'Id of the client' }),
});

export const SupplierIdParam = z.object({
  consumer_id: z
    .uuid()
    .openapi({ param: { name: 'consumer_id', in: 'path' }, description: 'Id of the consumer' }),
  supplier_id: z
    .string()
    .openapi({ param: { name: 'supplier_id', in: 'path' }, description: 'Id of the supplier' }),
});

export const ContactsQuery = pageQuery({
  folder_id: folderIdParam,
  partner_type: PartnerType.openapi({ param: { name: 'partner_type', in: 'query', required: true } }),
  partner_id: z.string().openapi({ param: { name: 'partner_id', in: 'query', required: true } }),
});

export type PartnerInInput = z.infer<typeof partnerIn>;
export type PartnerUpdateInput = z.infer<typeof partnerUpdate>;
export type PartnerOut = z.infer<typeof partnerOut>;
export type ContactItemOut = z.infer<typeof ContactItem>;
