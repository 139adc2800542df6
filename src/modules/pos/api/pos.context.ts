import { own } from '../../../lib/own.js';
import { eventListened } from '../../../platform/announcements.js';
import { connectionDatasetRef } from '../../../platform/datasets.js';
import type { Vertical } from '../../../platform/operation.js';
import type { ConsumerRecord, World } from '../../../store/world.js';
import { type EventServices, publishEvent } from '../../webhooks/index.js';
import type { PosDataset, PosOrder } from '../model/pos.records.js';
import { completeDueOrders, posDatasetOf } from './pos.domain.js';

export const POS_API = 'Point of Sale' as const;

/** The world's collection of the POS connections' datasets. */
export const POS_DATASETS = 'pos_datasets';

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

/** The world's note of the last instant whose POS business was announced (sandbox_state). */
export const POS_BUSINESS = 'business:pos';
/** Whether an active webhook listens to pos.order.completed. */
export const completionsListened = (world: World): boolean => eventListened(world, 'pos.order.completed');

/**
 * What every POS operation works on, once the consumer, its active POS connection and the coverage
 * have been checked: the connection's dataset as it stands at the clock's minute (the orders the
 * history left open closed once their time came: generated, not written), built in slices when it
 * is not in memory. A read writes nothing: the open orders a client declared complete by the
 * clock's work (posOrdersTask), the business is announced by posBusinessTask.
 */
export const pos: Vertical<PosDataset> = {
  api: POS_API,
  dataset: (_c, { connection }) => connectionDatasetRef(POS_DATASETS, connection),
  open: (c, { connection }) => posDatasetOf(c.get('store'), connection),
};
