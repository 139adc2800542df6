import { z } from '@hono/zod-openapi';
import { pageQuery, servicePage } from '../../../lib/pagination.js';
import { ConsumerIdParam } from '../../../platform/openapi.js';
import { PaymentPaymentStatus, Ref } from '../../../platform/wire.js';
import { PayoutStatus, PayoutType } from '../model/payment.values.js';

/** Wire shapes of the Payment vertical (a payment service provider's account). */

export { ConsumerIdParam };

export const PaymentLocationItem = z
  .object({ id: z.string(), name: z.string() })
  .openapi('PaymentLocationItem', { description: 'A shop or site that takes payments' });

export const ServicePage_PaymentLocationItem_ = servicePage(PaymentLocationItem, 'PaymentLocationItem');

export const BalanceItemOut = z
  .object({
    id: z.string(),
    source_ref: Ref,
    available_amount: z.number().openapi({ description: 'Net of the movements not yet paid out' }),
    currency: z.string(),
    create_date: z.iso.datetime({ offset: true }).nullable().optional(),
  })
  .openapi('BalanceItemOut', { description: 'A balance held by the payment provider' });

export const ServicePage_BalanceItemOut_ = servicePage(BalanceItemOut, 'BalanceItemOut');

export const TransactionAccountingCategory = z
  .enum([
    'all',
    'unknown',
    'payout',
    'payout_cancel',
    'payment',
    'payment_cancel',
    'fee',
    'fee_cancel',
    'invoice',
    'internal_move',
  ])
  .openapi('TransactionAccountingCategory');

export const TransactionItemOut = z
  .object({
    id: z.string(),
    source_ref: Ref,
    amount: z.number().openapi({ description: 'Signed: positive into the balance, negative out of it' }),
    fee: z.number().openapi({ description: 'Taken by the provider; the balance moves by amount - fee' }),
    currency: z.string(),
    exchange_rate: z.number(),
    create_date: z.iso.datetime({ offset: true }),
    application_type: z.string(),
    accounting_category: TransactionAccountingCategory,
    refund_id: z.string().nullable().optional(),
    payment_id: z.string().nullable().optional(),
    description: z.string().nullable().optional(),
  })
  .openapi('TransactionItemOut', { description: 'A movement of a balance' });

export const ServicePage_TransactionItemOut_ = servicePage(TransactionItemOut, 'TransactionItemOut');

export const PaymentItemOut = z
  .object({
    id: z.string(),
    source_ref: Ref,
    status: PaymentPaymentStatus,
    description: z.string(),
    amount: z.number(),
    currency: z.string(),
    payment_date: z.iso.datetime({ offset: true }),
    partner_id: z.string().nullable().optional(),
  })
  .openapi('PaymentItemOut', { description: 'A payment taken' });

export const ServicePage_PaymentItemOut_ = servicePage(PaymentItemOut, 'PaymentItemOut');

export const RefundItemOut = z
  .object({
    id: z.string(),
    source_ref: Ref,
    status: PaymentPaymentStatus,
    description: z.string(),
    amount: z.number(),
    currency: z.string(),
    refund_date: z.iso.datetime({ offset: true }),
    payment_id: z.string().nullable().optional(),
  })
  .openapi('RefundItemOut', { description: 'A refund of a payment' });

export const ServicePage_RefundItemOut_ = servicePage(RefundItemOut, 'RefundItemOut');

export const PayoutItemOut = z
  .object({
    id: z.string(),
    source_ref: Ref,
    status: PayoutStatus,
    type: PayoutType,
    amount: z.number(),
    currency: z.string(),
    fee: z.number().nullable().optional(),
    extra_fee: z.number().nullable().optional(),
    payment_date: z.iso.date(),
  })
  .openapi('PayoutItemOut', { description: 'A transfer of a balance to the merchant' });

export const ServicePage_PayoutItemOut_ = servicePage(PayoutItemOut, 'PayoutItemOut');

const dateQuery = (name: string, description: string) =>
  z.iso
    .date()
    .optional()
    .openapi({ param: { name, in: 'query' }, description });

const idQuery = (name: string, description: string) =>
  z
    .string()
    .optional()
    .openapi({ param: { name, in: 'query' }, description });

const dates = (what: string) => ({
  date_from: dateQuery('date_from', `${what} on or after this day`),
  date_to: dateQuery('date_to', `${what} on or before this day`),
});

const locationId = idQuery('location_id', 'Only those of this location');

export const PageOnlyQuery = pageQuery({});

export const TransactionsQuery = pageQuery({
  accounting_category: TransactionAccountingCategory.optional().openapi({
    param: { name: 'accounting_category', in: 'query' },
    description: 'Only movements of this category (default all)',
  }),
  starting_from: idQuery('starting_from', 'Only movements more recent than this one (excluded)'),
  balance_id: idQuery('balance_id', 'Only movements of this balance'),
  payout_id: idQuery('payout_id', 'Only the movements a payout paid out, and the payout itself'),
  ...dates('Movements'),
  location_id: locationId,
});

export const PaymentsQuery = pageQuery({ ...dates('Payments'), location_id: locationId });

export const RefundsQuery = pageQuery({
  payment_id: idQuery('payment_id', 'Only the refunds of this payment'),
  ...dates('Refunds'),
  location_id: locationId,
});

export const PayoutsQuery = pageQuery({ ...dates('Payouts'), location_id: locationId });

export const PaymentIdParam = ConsumerIdParam.extend({
  payment_id: z
    .string()
    .openapi({ param: { name: 'payment_id', in: 'path' }, description: 'Id of the payment' }),
});

export type TransactionsQueryInput = z.infer<typeof TransactionsQuery>;
