import { uuidFrom } from '../../../lib/ids.js';
import { businessTask } from '../../../platform/announcements.js';
import type { Services } from '../../../platform/context.js';
import { untilOf } from '../../../platform/seeding/dataset-seeder.js';
import { activityEnd } from '../../../platform/seeding/vertical-data.js';
import type { TickTask } from '../../../platform/ticker.js';
import { publishEvent, subscribersOf } from '../../webhooks/index.js';
import type { CommerceDataset, CommerceOrder, CommerceOrderStatusValue } from '../model/commerce.records.js';
import { toOrderItem } from './commerce.domain.js';
import { orderCreatedEvent } from './commerce.events.js';

/** The world's collection of the eCommerce connections' datasets. */
export const COMMERCE_DATASETS = 'commerce_datasets';
/** The world's note of the last instant whose eCommerce business was announced (sandbox_state). */
const COMMERCE_BUSINESS = 'business:commerce';

/**
 * The orders the days after the history drew for a dataset (those of liveCommerceDays, not the
 * history's nor any a client created) placed after `after` and by `through` (instants), by creation.
 */
export function livingOrders(
  dataset: CommerceDataset,
  input: { until?: string },
  after: string,
  through: string,
): CommerceOrder[] {
  const since = activityEnd(untilOf(input));
  return Object.values(dataset.orders)
    .filter((order) => {
      const created = order.created_on;
      if (created <= since || created <= after || created > through) return false;
      const index = Number(order.order_number?.slice(9)) - 1;
      return order.id === uuidFrom('commerce-order', dataset.connectionid, created.slice(0, 10), index);
    })
    .sort((a, b) => a.created_on.localeCompare(b.created_on) || a.id.localeCompare(b.id));
}

/** The status an order of the days after the history was placed with: paid, or its payment failed. */
export const placedStatus = (order: CommerceOrder): CommerceOrderStatusValue =>
  order.transactions.some((t) => t.status === 'failed') ? 'cancelled_unpaid' : 'confirmed';

/**
 * Background task: announces the business as it happens: commerce.order.created for each order the
 * shop's customers placed (see liveCommerceDays) once the clock passes its placing, for every
 * eCommerce connection a listening webhook reaches, whether a client read its data or not (see
 * businessTask), with the fields the API's own create publishes (the order as it was placed).
 */
export const commerceBusinessTask = (services: Services): TickTask =>
  businessTask<CommerceDataset, ReturnType<typeof orderCreatedEvent>>(services, {
    cursor: COMMERCE_BUSINESS,
    event: 'commerce.order.created',
    api: 'eCommerce',
    collection: COMMERCE_DATASETS,
    listens: (world, consumer, connection) =>
      subscribersOf(
        world,
        consumer.accountid,
        consumer.envid,
        'commerce.order.created',
        connection.integrationid,
        consumer.consumerid,
      ).length > 0,
    events: (dataset, until, consumer, after, through) =>
      livingOrders(dataset, { until }, after, through).map((order) =>
        orderCreatedEvent(consumer, dataset.connectionid, dataset.integrationid, {
          ...toOrderItem(dataset, order),
          status: placedStatus(order),
        }),
      ),
    publish: (services, store, event) => publishEvent({ ...services, store }, event),
  });
