import { own } from '../../lib/own.js';
import type { Vertical } from '../../platform/operation.js';
import type { ConsumerRecord, World } from '../../store/world.js';
import { type EventServices, publishEvent } from '../webhooks/index.js';
import { completeDueOrders, posDatasetOf } from './pos.domain.js';
import type { PosDataset, PosOrder } from './pos.records.js';

export const POS_API = 'Point of Sale' as const;

/** pos.order.completed: an order was paid and closed. */
export function orderCompletedEvent(consumer: ConsumerRecord, dataset: PosDataset, order: PosOrder) {
  return {
    accountid: consumer.accountid,
    envid: consumer.envid,
    event: 'pos.order.completed',
    consumerid: consumer.consumerid,
    integrationid: dataset.integrationid,
    fields: {
      connectionid: dataset.connectionid,
      integrationid: dataset.integrationid,
      order_id: order.id,
      order_number: order.order_number,
      location_id: order.location_id,
      closing_date: order.closing_date,
      total: order.total,
      currency: order.currency,
    },
  };
}

/**
 * Completes the open orders of a dataset whose time has come and publishes pos.order.completed for
 * each; returns how many. The caller commits.
 */
export function settleDataset(services: EventServices, world: World, dataset: PosDataset): number {
  if (dataset.open_orders.length === 0) return 0;
  const completed = completeDueOrders(dataset, services.clock.now());
  const consumer = own(world.consumers, dataset.consumerid);
  if (consumer) {
    for (const order of completed) publishEvent(services, orderCompletedEvent(consumer, dataset, order));
  }
  return completed.length;
}

/**
 * What every POS operation works on, once the consumer, its active POS connection and the coverage
 * have been checked: the connection's dataset, built on first access, with the orders due by now
 * completed.
 */
export const pos: Vertical<PosDataset> = {
  api: POS_API,
  open: async (c, { connection }) => {
    const store = c.get('store');
    // Completing due orders is a write, even on a read: it goes through the write boundary.
    await store.transact((write) => {
      settleDataset({ ...c.var, store: write }, write.world, posDatasetOf(write, connection));
    });
    // As the request sees it: tracked inside a write, plain on a read.
    return posDatasetOf(store, connection);
  },
};
