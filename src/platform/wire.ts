import { z } from '@hono/zod-openapi';
import { servicePage } from '../lib/pagination.js';

/**
 * The wire shapes several verticals share, under the reference's names: an address and its type, a
 * record's reference in the connected software, statuses of payments, VAT code scopes and types, and
 * attached documents. Kept here so that a vertical uses another's shape without depending on it.
 */

export const AddressType = z
  .enum(['main', 'delivery', 'invoice'])
  .openapi('AddressType', { description: 'What an address is used for' });

export const AddressItemOut = z
  .object({
    address_type: AddressType,
    name: z.string().nullable().optional(),
    number: z.string().nullable().optional(),
    box: z.string().nullable().optional(),
    phone: z.string().nullable().optional(),
    mobile: z.string().nullable().optional(),
    email: z.string().nullable().optional(),
    street: z.string().nullable().optional(),
    city: z.string().nullable().optional(),
    postal_code: z.string().nullable().optional(),
    country: z.string().nullable().optional().openapi({ description: 'ISO 3166-1 alpha-2 country code' }),
  })
  .openapi('AddressItemOut', { description: 'An address of a partner' });

export const ItemAttachmentInfoStatus = z
  .enum(['unknown', 'yes', 'yes_to_request', 'no'])
  .openapi('ItemAttachmentInfoStatus');

export const ItemAttachmentInfoAttachment = z
  .object({
    filename: z.string().nullable().optional(),
    url: z.string().nullable().optional(),
  })
  .openapi('ItemAttachmentInfoAttachment');

export const ItemAttachmentInfoOut = z
  .object({
    status: ItemAttachmentInfoStatus,
    attachments: z.array(ItemAttachmentInfoAttachment).nullable().optional(),
  })
  .openapi('ItemAttachmentInfoOut', { description: 'Whether documents are attached, and their names' });

export const AttachmentItemOut = z
  .object({
    id: z.string(),
    base64_string: z.string().openapi({ description: 'The PDF, base64-encoded' }),
  })
  .openapi('AttachmentItemOut', { description: 'An attached PDF' });

export const ServicePage_AttachmentItemOut_ = servicePage(AttachmentItemOut, 'AttachmentItemOut');

export const PaymentStatus = z.enum(['all', 'unpaid', 'paid']).openapi('PaymentStatus');

export const VatCodeScope = z.enum(['nat', 'eu', 'int', 'unknown']).openapi('VatCodeScope');

export const VatCodeType = z.enum(['sale', 'purchase', 'both', 'unknown']).openapi('VatCodeType');

export const Ref = z
  .object({
    id: z.string().nullable().optional(),
    model: z.string().nullable().optional(),
  })
  .openapi('Ref', { description: 'The record behind an item in the connected software' });

export const PaymentPaymentStatus = z
  .enum(['pending', 'completed', 'partially_completed', 'canceled', 'failed', 'unknown', 'authorized'])
  .openapi('PaymentPaymentStatus');
