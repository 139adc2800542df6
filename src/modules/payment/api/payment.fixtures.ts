import { z } from '@hono/zod-openapi';
import { uuidFrom } from '../../../lib/ids.js';
import type { PathPart } from '../../../platform/fixtures/errors.js';
import * as kit from '../../../platform/fixtures/kit.js';
import { round2 } from '../../../platform/seeding/vertical-data.js';
import { PaymentPaymentStatus } from '../../../platform/wire.js';
import type {
  PaymentBalance,
  PaymentDataset,
  PaymentLocation,
  PaymentPayment,
  PaymentRefund,
} from '../model/payment.records.js';
import {
  balanceMovement,
  chargeFields,
  payableMovements,
  payOut,
  payoutDayOf,
  payoutNet,
  refundDescription,
  refundFields,
} from '../world/payment.seed.js';
import { paymentDatasetOf } from './payment.domain.js';

/**
 * The Payment block of a connection in the fixture document (`connections[].payment`): payments of
 * the provider, their refunds, and the balance movements they make (as the seeder makes them: a
 * completed payment brings its amount in and the card fee out, a completed refund takes its amount
 * out), and payouts of a balance, by the seeder's own functions. The API creates none; a movement
 * stays unpaid until a payout of the document pays it out.
 */

// ---------------------------------------------------------------------------------------------
// The block's schema.

export const PaymentRefundFixture = z
  .object({
    id: kit.id(),
    amount: z
      .number()
      .positive()
      .describe("Default: what the payment's other refunds leave (all of it)")
      .optional(),
    refund_date: kit.instant().describe('Not before the payment, not after the sandbox clock'),
    status: z.enum(['completed', 'pending']).default('completed'),
    description: z.string().optional(),
  })
  .strict();

export const PaymentPaymentFixture = z
  .object({
    id: kit.id(),
    location: z
      .string()
      .optional()
      .describe('A location of the provider: its id or name (default: the first)'),
    amount: z.number().positive(),
    currency: kit.Currency.optional().describe("The balance's currency (the only one it takes)"),
    payment_date: kit.instant().describe('Not after the sandbox clock'),
    status: PaymentPaymentStatus.default('completed').describe(
      'completed brings its amount into the balance',
    ),
    description: z.string().min(1),
    partner_id: z.string().nullable().optional().describe("The provider's customer id (cus_...)"),
    refunds: z.array(PaymentRefundFixture).optional().describe('Refunds of a completed payment'),
  })
  .strict();

export const PaymentPayoutFixture = z
  .object({
    id: kit.id(),
    location: z
      .string()
      .optional()
      .describe('A location of the provider: its id or name (default: the first); its balance is paid out'),
    payment_date: kit
      .day()
      .describe(
        "The day it reaches the bank: it is made three days before (not after the sandbox clock) and pays out the balance's movements no payout has paid yet, once two days old (this block's payments included); in transit until the clock's day has come",
      ),
  })
  .strict();

export const PaymentFixture = z
  .object({
    payments: kit.list(
      PaymentPaymentFixture,
      'Payments of the provider, with their balance movements and refunds',
    ),
    payouts: kit.list(
      PaymentPayoutFixture,
      'Payouts of a balance to the bank (after the payments): their amount is what they pay out',
    ),
  })
  .strict();

// ---------------------------------------------------------------------------------------------
// Applying the block.

/** The provider's own id of a fixture's record (its source_ref id): py_F..., po_F... */
const sourceId = (prefix: string, of: string) => `${prefix}_F${of.replace(/-/g, '').slice(0, 13)}`;
/** The id of the balance movement a fixture's payment, refund or payout makes. */
const movement = (kind: string, of: string) => uuidFrom('fixture-payment-movement', kind, of);

/** What the block's records are made in: the provider's dataset, and the ids the load answers. */
type Provider = kit.Maker<PaymentDataset> & { readonly out: kit.VerticalRecords };

/** A location of the provider by id or name (default: the first), and its balance. */
function paymentLocation(
  { data, namedIn }: Provider,
  value: string | undefined,
  path: PathPart[],
): { location: PaymentLocation; balance: PaymentBalance } {
  const locations = Object.values(data.locations);
  const location = namedIn(locations, value, [...path, 'location'], 'a location of the provider');
  const balance = Object.values(data.balances).find((b) => b.location_id === location.id) as PaymentBalance;
  return { location, balance };
}

/**
 * A payout of a location's balance, as the provider makes one (payment.seed.ts): made three days
 * before it reaches the bank, it pays out the movements no payout has paid yet, once two days old.
 */
function paymentPayout(provider: Provider, record: z.output<typeof PaymentPayoutFixture>, path: PathPart[]) {
  const { context, data, failAt } = provider;
  const id = provider.freshId(record.id, path, data.payouts, 'payout');
  const { location, balance } = paymentLocation(provider, record.location, path);
  const now = context.now();
  const today = now.slice(0, 10);
  const day = payoutDayOf(record.payment_date);
  const at = [...path, 'payment_date'];
  if (day > today)
    failAt(
      at,
      `A payout reaching the bank on ${record.payment_date} is made on ${day}, after the sandbox clock (${now})`,
    );
  const movements = payableMovements(data, balance, day);
  const net = payoutNet(movements);
  if (net <= 0) {
    failAt(
      at,
      `A payout made on ${day} has nothing to pay out: the movements of ${location.name} no payout has paid yet, once two days old, come to ${net}`,
    );
  }
  const movementId = movement('payout', id);
  const made = payOut(data, balance, movements, day, today, (kind) =>
    kind === 'payout'
      ? { id, sourceId: sourceId('po', id) }
      : { id: movementId, sourceId: sourceId('txn', movementId) },
  );
  if (made.movement.create_date > now) {
    failAt(
      at,
      `A payout made on ${day} leaves the balance at ${made.movement.create_date}, after the sandbox clock (${now})`,
    );
  }
  return made.payout.id;
}

function paymentRecord(provider: Provider, record: z.output<typeof PaymentPaymentFixture>, path: PathPart[]) {
  const { context, data, failAt, out } = provider;
  const id = provider.freshId(record.id, path, data.payments, 'payment');
  const { location, balance } = paymentLocation(provider, record.location, path);
  if (record.currency !== undefined && record.currency !== balance.currency) {
    failAt(
      [...path, 'currency'],
      `The balance of ${location.name} holds ${balance.currency}: a payment there is in ${balance.currency}, not ${record.currency}`,
    );
  }
  const stamp = new Date(record.payment_date).toISOString();
  const now = context.now();
  if (stamp > now) failAt([...path, 'payment_date'], `${stamp} is after the sandbox clock (${now})`);
  const payment: PaymentPayment = {
    id,
    source_ref: { id: sourceId('py', id), model: 'payment' },
    location_id: location.id,
    status: record.status,
    description: record.description,
    amount: round2(record.amount),
    currency: balance.currency,
    payment_date: stamp,
    partner_id: record.partner_id ?? null,
  };
  data.payments[id] = payment;
  if (payment.status === 'completed') {
    const movementId = movement('payment', id);
    const ids = { id: movementId, sourceId: sourceId('txn', movementId) };
    data.transactions[movementId] = balanceMovement(balance, ids, chargeFields(payment));
  }
  let left = Math.round(payment.amount * 100);
  (record.refunds ?? []).forEach((refund, index) => {
    const at = [...path, 'refunds', index];
    if (payment.status !== 'completed') {
      failAt(at, `The payment is ${payment.status}: only a completed payment is refunded`);
    }
    const refundId = provider.freshId(refund.id, at, data.refunds, 'refund');
    const amount = refund.amount === undefined ? left / 100 : round2(refund.amount);
    if (Math.round(amount * 100) > left || left === 0) {
      failAt(
        [...at, 'amount'],
        `${amount} is more than what is left to refund of the payment (${left / 100} of ${payment.amount})`,
      );
    }
    left -= Math.round(amount * 100);
    const date = new Date(refund.refund_date).toISOString();
    if (date < stamp) failAt([...at, 'refund_date'], `${date} is before the payment (${stamp})`);
    if (date > now) failAt([...at, 'refund_date'], `${date} is after the sandbox clock (${now})`);
    const made: PaymentRefund = {
      id: refundId,
      source_ref: { id: sourceId('re', refundId), model: 'refund' },
      location_id: location.id,
      payment_id: id,
      status: refund.status,
      description: refund.description ?? refundDescription(payment, amount === payment.amount),
      amount,
      currency: payment.currency,
      refund_date: date,
    };
    data.refunds[refundId] = made;
    out.refunds?.push(refundId);
    if (refund.status !== 'completed') return;
    const movementId = movement('refund', refundId);
    const ids = { id: movementId, sourceId: sourceId('txn', movementId) };
    data.transactions[movementId] = balanceMovement(balance, ids, refundFields(payment, made));
  });
  return id;
}

/** The Payment block of a connection in the fixture document. */
export const paymentFixtures = kit.verticalFixtures(PaymentFixture, (scope, _block, out) => {
  const provider: Provider = { ...kit.makerOf(scope, kit.datasetOf(scope, paymentDatasetOf)), out };
  return {
    payments: [null, (record, path) => paymentRecord(provider, record, path)],
    refunds: kit.NESTED,
    // After the payments: a payout pays out their movements too.
    payouts: [null, (record, path) => paymentPayout(provider, record, path)],
  };
});
