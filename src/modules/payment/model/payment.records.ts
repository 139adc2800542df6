import type { z } from '@hono/zod-openapi';
import type { PaymentPaymentStatus } from '../../../platform/wire.js';
import type { SourceRefValue } from '../../../store/world.js';
import type { PayoutStatus, PayoutType } from './payment.values.js';

/**
 * The stored records of the Payment vertical: one dataset per (consumer, connection), built from
 * (seed, consumerid, connectionid) the first time the connection is used (payment.seed.ts) and then
 * changed by writes. Enumerations are the wire's (payment.values.ts; a payment's status is the
 * Invoicing one, as in api/payment.schemas.ts).
 */

export type PaymentStatusValue = z.infer<typeof PaymentPaymentStatus>;

export interface PaymentLocation {
  id: string;
  name: string;
}

export interface PaymentBalance {
  id: string;
  source_ref: SourceRefValue;
  location_id: string;
  currency: string;
  create_date: string;
}

export interface PaymentPayment {
  id: string;
  source_ref: SourceRefValue;
  location_id: string;
  status: PaymentStatusValue;
  description: string;
  amount: number;
  currency: string;
  payment_date: string;
  partner_id: string | null;
}

export interface PaymentRefund {
  id: string;
  source_ref: SourceRefValue;
  location_id: string;
  payment_id: string;
  status: PaymentStatusValue;
  description: string;
  amount: number;
  currency: string;
  refund_date: string;
}

/** The wire's TransactionAccountingCategory but 'all', which only filters. */
export type PaymentAccountingCategory =
  | 'unknown'
  | 'payout'
  | 'payout_cancel'
  | 'payment'
  | 'payment_cancel'
  | 'fee'
  | 'fee_cancel'
  | 'invoice'
  | 'internal_move';

/** A movement of a balance: amount (signed) and fee; the balance moves by amount - fee. */
export interface PaymentTransaction {
  id: string;
  source_ref: SourceRefValue;
  balance_id: string;
  location_id: string;
  /** The payout that paid this movement out (or the payout's own movement), null while unpaid. */
  payout_id: string | null;
  amount: number;
  fee: number;
  currency: string;
  exchange_rate: number;
  create_date: string;
  application_type: string;
  accounting_category: PaymentAccountingCategory;
  refund_id: string | null;
  payment_id: string | null;
  description: string | null;
}

export interface PaymentPayout {
  id: string;
  source_ref: SourceRefValue;
  location_id: string;
  balance_id: string;
  status: z.infer<typeof PayoutStatus>;
  type: z.infer<typeof PayoutType>;
  amount: number;
  currency: string;
  fee: number | null;
  extra_fee: number | null;
  payment_date: string;
}

export interface PaymentDataset {
  consumerid: string;
  connectionid: string;
  integrationid: number;
  locations: Record<string, PaymentLocation>;
  balances: Record<string, PaymentBalance>;
  payments: Record<string, PaymentPayment>;
  refunds: Record<string, PaymentRefund>;
  transactions: Record<string, PaymentTransaction>;
  payouts: Record<string, PaymentPayout>;
}

declare module '../../../store/world.js' {
  interface World {
    /** Payment datasets, keyed by datasetKey(consumerid, connectionid); built on first use. */
    payment_datasets: Record<string, PaymentDataset>;
  }
}
