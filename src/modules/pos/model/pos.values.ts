import { z } from '@hono/zod-openapi';

/**
 * The value sets of the POS records that the wire names as its enumerations: the records
 * (pos.records.ts), the generator and the wire shapes (api/pos.schemas.ts) take them from here.
 */

export const Mode = z.enum(['EAT_IN', 'TAKEAWAY', 'DELIVERY', 'UNKNOWN']).openapi('Mode');

export const Source = z
  .enum([
    'WEB',
    'MOBILE',
    'KIOSK',
    'POS',
    'REMOTE_POS',
    'JUSTEAT',
    'FOODORA',
    'UBEREATS',
    'GLOVO',
    'DELIVEROO',
    'SMILEIN',
    'UNKNOWN',
  ])
  .openapi('Source', { description: 'Where the order was taken' });

export const POSLineItemType = z
  .enum(['menu', 'product', 'service', 'general_discount'])
  .openapi('POSLineItemType');

export const DiscountType = z.enum(['OFFERED', 'UNKNOWN', 'LOSS']).openapi('DiscountType');

export const POSPaymentStatus = z
  .enum(['Pending', 'Completed', 'Canceled', 'Failed', 'Unknown', 'Authorised'])
  .openapi('POSPaymentStatus');
