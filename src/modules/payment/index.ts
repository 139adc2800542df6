import type { OpenAPIHono } from '@hono/zod-openapi';
import { oneApi } from '../../platform/catalogue.js';
import type { AppEnv } from '../../platform/context.js';
import type { ConnectionDatasetArgs } from '../../platform/datasets.js';
import { registerOperations } from '../../platform/operation.js';
import type { VerticalModule } from '../../platform/vertical-module.js';
import { paymentFixtures } from './api/payment.fixtures.js';
import * as h from './api/payment.handlers.js';
import { paymentSamples } from './api/payment.samples.js';
import type { PaymentDataset } from './model/payment.records.js';
import { paymentDatasetBuild } from './world/payment.living.js';

/**
 * The Payment vertical under /consumers/{consumer_id}/payment: read-only, over the dataset of the
 * consumer's active Payment connection, seeded on first use (payment.seed.ts). Its business goes on
 * with the clock: its payments, refunds and payouts appear as they happen, each at its minute
 * (livePaymentDays).
 */
export function registerPayment(app: OpenAPIHono<AppEnv>): void {
  registerOperations(app, [
    h.getLocations,
    h.getBalances,
    h.getTransactions,
    h.getPayments,
    h.getPayment,
    h.getRefunds,
    h.getPayouts,
  ]);
}

/** The Payment vertical, as the app composes it (src/verticals.ts). */
export const paymentModule: VerticalModule<PaymentDataset, ConnectionDatasetArgs> = {
  key: 'payment',
  ...oneApi('Payment'),
  envName: 'PAYMENT',
  showcase: 7106,
  collection: 'payment_datasets',
  build: paymentDatasetBuild,
  register: registerPayment,
  fixtures: paymentFixtures,
  samples: paymentSamples,
  lives: true,
};
