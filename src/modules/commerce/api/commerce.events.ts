import type { ConsumerRecord } from '../../../store/world.js';
import type { OrderItemOutValue } from './commerce.schemas.js';

/**
 * commerce.order.created: an order was placed, through the API (published with its write) or by the
 * shop's customers on a day after the history (published once the clock passes its placing, see
 * index.ts). The fields are the order's as it was placed.
 */
export function orderCreatedEvent(
  consumer: ConsumerRecord,
  connectionid: string,
  integrationid: number,
  order: Pick<OrderItemOutValue, 'id' | 'order_number' | 'status' | 'currency' | 'total'>,
) {
  return {
    accountid: consumer.accountid,
    envid: consumer.envid,
    event: 'commerce.order.created',
    consumerid: consumer.consumerid,
    integrationid,
    fields: {
      connectionid,
      integrationid,
      order_id: order.id,
      order_number: order.order_number,
      status: order.status,
      currency: order.currency,
      total: order.total,
    },
  };
}
