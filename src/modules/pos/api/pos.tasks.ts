import { own } from '../../../lib/own.js';
import { businessTask } from '../../../platform/announcements.js';
import type { Services } from '../../../platform/context.js';
import { untilOf } from '../../../platform/seeding/dataset-seeder.js';
import { activityEnd, connectionIds } from '../../../platform/seeding/vertical-data.js';
import type { TickTask } from '../../../platform/ticker.js';
import { publishEvent, subscribersOf } from '../../webhooks/index.js';
import type { PosDataset, PosOrder } from '../model/pos.records.js';
import { orderCompletedEvent, POS_API, POS_BUSINESS, POS_DATASETS, settleDataset } from './pos.context.js';

/**
 * Background task (its writes its own): the open orders clients declared (in the datasets writes
 * changed) complete as the sandbox clock passes their time, with their pos.order.completed. A
 * dataset is looked at only when its next order is due or a write changed it since it was last
 * looked at, so a run costs nothing for the datasets with nothing due; those it looks at are built
 * first in slices, apart from any write, then completed in one write.
 */
export function posOrdersTask(services: Services): TickTask {
  const notes = new Map<string, { revision: number | undefined; due: string | null }>();
  return async (store) => {
    const now = services.clock.now().toISOString();
    const looked = store.generatedKeys(POS_DATASETS).filter((key) => {
      const note = notes.get(key);
      const revision = store.generatedRevision(POS_DATASETS, key);
      return !note || note.revision !== revision || (note.due !== null && note.due <= now);
    });
    if (looked.length === 0) return;
    for (const key of looked) await store.prepare(POS_DATASETS, key, store.generatedArgs(POS_DATASETS, key));
    await store.transact((write) => {
      // What it writes is the sandbox's own bookkeeping (the orders the clock completed, their
      // events, bounded by the outbox): counted, never refused, or a full world would redo it.
      write.bookkeeping();
      for (const key of looked) {
        const revision = write.generatedRevision(POS_DATASETS, key);
        const dataset = write.open<PosDataset>(POS_DATASETS, key);
        if (!dataset) {
          notes.delete(key);
          continue;
        }
        settleDataset({ ...services, store: write }, write.world, dataset);
        // A run that completed orders changes the revision when its write commits: the next run
        // looks once more, finds nothing due, and notes the new revision.
        notes.set(key, { revision, due: nextDue(dataset) });
      }
    });
  };
}

/** When the next open order of a dataset is due, or null when none is. */
function nextDue(dataset: PosDataset): string | null {
  let due: string | null = null;
  for (const id of dataset.open_orders) {
    const at = own(dataset.orders, id)?.closes_at ?? null;
    if (at !== null && (due === null || at < due)) due = at;
  }
  return due;
}

/**
 * The generated orders that closed after the history's end (on `until`'s morning: those the living
 * days drew, and those the history left open; none a client declared), after `after` and by
 * `through` (instants), by closing time.
 */
export function livingOrders(
  dataset: PosDataset,
  input: { until?: string },
  after: string,
  through: string,
): PosOrder[] {
  const since = activityEnd(untilOf(input));
  const id = connectionIds('pos', dataset.connectionid);
  return Object.values(dataset.orders)
    .filter((order) => {
      const closing = order.closing_date;
      return (
        closing !== null &&
        closing > since &&
        closing > after &&
        closing <= through &&
        order.id === id('order', Number(order.order_number))
      );
    })
    .sort(
      (a, b) =>
        (a.closing_date as string).localeCompare(b.closing_date as string) || a.id.localeCompare(b.id),
    );
}

/**
 * Background task: announces the business as it happens: pos.order.completed for each order the
 * living days drew (see livePosDays) once the clock passes its closing, for every POS connection a
 * listening webhook reaches, whether a client read its data or not (see businessTask).
 */
export const posBusinessTask = (services: Services): TickTask =>
  businessTask<PosDataset, ReturnType<typeof orderCompletedEvent>>(services, {
    cursor: POS_BUSINESS,
    event: 'pos.order.completed',
    api: POS_API,
    collection: POS_DATASETS,
    listens: (world, consumer, connection) =>
      subscribersOf(
        world,
        consumer.accountid,
        consumer.envid,
        'pos.order.completed',
        connection.integrationid,
        consumer.consumerid,
      ).length > 0,
    events: (dataset, until, consumer, after, through) =>
      livingOrders(dataset, { until }, after, through).map((order) =>
        orderCompletedEvent(consumer, dataset, order),
      ),
    publish: (services, store, event) => publishEvent({ ...services, store }, event),
  });
