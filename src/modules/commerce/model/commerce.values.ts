import { z } from '@hono/zod-openapi';

/**
 * The value sets of the eCommerce records that the wire names as its enumerations: the records
 * (commerce.records.ts), the generator and the wire shapes (api/commerce.schemas.ts) take them from here.
 */

export const ProductStatus = z
  .enum(['unknown', 'archived', 'unpublished', 'published'])
  .openapi('ProductStatus');

export const FeesType = z.enum(['shipping', 'other']).openapi('FeesType');

export const CommerceTransactionStatus = z
  .enum(['failed', 'pending', 'success'])
  .openapi('CommerceTransactionStatus');

export const OrderStatus = z
  .enum(['cancelled_unpaid', 'cancelled', 'draft', 'confirmed', 'shipped', 'refunded'])
  .openapi('OrderStatus');
