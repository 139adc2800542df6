import { own } from '../../lib/own.js';
import { announcedThrough, eventListened, oldestAnnounced } from '../../platform/announcements.js';
import type { ConnectionDatasetArgs } from '../../platform/datasets.js';
import type { Vertical } from '../../platform/operation.js';
import { type ConsumerRecord, datasetKey, type World } from '../../store/world.js';
import { type EventServices, publishEvent } from '../webhooks/index.js';
import { completeDueOrders, posDatasetOf } from './pos.domain.js';
import type { PosDataset, PosOrder } from './pos.records.js';
import { livingOrders } from './pos.seed.js';

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

/** The world's note of the last instant whose POS business was announced (sandbox_state). */
export const POS_BUSINESS = 'business:pos';
/** Whether an active webhook listens to pos.order.completed. */
export const completionsListened = (world: World): boolean => eventListened(world, 'pos.order.completed');

/**
 * The generated orders of a dataset used for the first time that closed while the business was
 * announced without it (the background task announces the datasets in use only): those the
 * announcements through now have missed, to announce late, once. None when nothing listens.
 */
function missedCompletions(world: World, dataset: PosDataset, args: ConnectionDatasetArgs): PosOrder[] {
  const through = announcedThrough(world.sandbox_state[POS_BUSINESS]?.through);
  if (through === undefined || !completionsListened(world)) return [];
  return livingOrders(dataset, args, oldestAnnounced(through), through);
}

const isDue = (dataset: PosDataset, instant: string): boolean =>
  dataset.open_orders.some((id) => {
    const order = own(dataset.orders, id);
    if (!order) return true;
    return order.closes_at === null ? order.closing_date !== null : order.closes_at <= instant;
  });

/**
 * What every POS operation works on, once the consumer, its active POS connection and the coverage
 * have been checked: the connection's dataset, built on first access as it stands now (the orders
 * the history left open closed once their time came: generated, not written). A request writes only
 * when there is something to write: open orders a client declared that are due, or, on a dataset's
 * first use, the completions announced while it was not in use that a webhook listens to.
 */
export const pos: Vertical<PosDataset> = {
  api: POS_API,
  open: async (c, { connection }) => {
    const store = c.get('store');
    const key = datasetKey(connection.consumerid, connection.connectionid);
    const firstUse = store.generatedArgs(POS_DATASETS, key) === undefined;
    const dataset = posDatasetOf(store, connection);
    const args = firstUse
      ? (store.generatedArgs(POS_DATASETS, key) as ConnectionDatasetArgs | undefined)
      : undefined;
    const missed = args ? missedCompletions(store.world, dataset, args) : [];
    // The usual read: nothing to write, the dataset as built.
    if (missed.length === 0 && !isDue(dataset, c.get('clock').now().toISOString())) return dataset;
    await store.transact((write) => {
      const services = { ...c.var, store: write };
      const tracked = posDatasetOf(write, connection);
      settleDataset(services, write.world, tracked);
      const consumer = own(write.world.consumers, tracked.consumerid);
      if (consumer) {
        for (const order of missed) publishEvent(services, orderCompletedEvent(consumer, tracked, order));
      }
    });
    // As the request sees it: tracked inside a write, plain on a read.
    return posDatasetOf(store, connection);
  },
};

const POS_DATASETS = 'pos_datasets';
