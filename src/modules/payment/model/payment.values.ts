import { z } from '@hono/zod-openapi';

/**
 * The value sets of the Payment records that the wire names as its enumerations: the records
 * (payment.records.ts), the generator and the wire shapes (api/payment.schemas.ts) take them from here.
 */

export const PayoutStatus = z
  .enum(['scheduled', 'in_transit', 'paid', 'failed', 'canceled'])
  .openapi('PayoutStatus');

export const PayoutType = z.enum(['payout', 'bank_account', 'other']).openapi('PayoutType');
