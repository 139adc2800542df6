import { type ExampleScope, type ExampleWorld, need, verticalExamples } from '../../../platform/examples.js';
import type { PosDataset } from '../model/pos.records.js';
import { posDatasetOf } from './pos.domain.js';

/**
 * The request body examples of the Point of Sale operations (see platform/examples.ts): read off the
 * dataset of the consumer /docs prefills for pos paths (its locations, orders and customers).
 */

/** The prefilled pos consumer's connection and its dataset. */
const posOf = (w: ExampleWorld): ExampleScope & { data: PosDataset } =>
  w.once('pos', () => {
    const scope = w.scope('pos', 'Point of Sale');
    return { ...scope, data: posDatasetOf(w.services.store, scope.connection) };
  });

/** The examples of the Point of Sale operations, by operationId. */
export const posExamples = verticalExamples(
  {
    pos_create_pos_customer: {
      path: '/consumers/{consumer_id}/pos/customers',
      build: (w) => ({
        body: {
          first_name: 'Camille',
          last_name: 'Lambert',
          phone: '+33 6 12 34 56 78',
          email: 'camille.lambert@mail.example',
          address: {
            name: 'Home',
            street: 'Rue de la République',
            number: '21',
            city: need(posOf(w).data.locations[0]?.address?.city, 'a location'),
            postal_code: posOf(w).data.locations[0]?.address?.postal_code ?? '75011',
            country: posOf(w).data.locations[0]?.address?.country ?? 'FR',
          },
        },
      }),
    },
    pos_update_pos_customer: {
      path: '/consumers/{consumer_id}/pos/orders/{order_id}',
      build: (w) => {
        const { data } = posOf(w);
        const open = new Set(data.open_orders);
        const order = need(
          Object.values(data.orders)
            .filter((o) => !open.has(o.id) && o.customer_id === null)
            .at(-1),
          'a closed order without a customer',
        );
        const customer = need(Object.values(data.customers)[0], 'a customer');
        return { body: { customer_id: customer.id }, params: { order_id: order.id } };
      },
    },
  },
  { scope: posOf },
);
