import type { OpenAPIHono } from '@hono/zod-openapi';
import { own } from '../../lib/own.js';
import { announcedThrough, oldestAnnounced } from '../../platform/announcements.js';
import { oneApi } from '../../platform/catalogue.js';
import type { AppEnv, Services } from '../../platform/context.js';
import type { ConnectionDatasetArgs } from '../../platform/datasets.js';
import { registerOperations } from '../../platform/operation.js';
import type { TickTask } from '../../platform/ticker.js';
import type { VerticalModule } from '../../platform/vertical-module.js';
import { publishEvent } from '../webhooks/index.js';
import { completionsListened, orderCompletedEvent, POS_BUSINESS, settleDataset } from './pos.context.js';
import { posOrdersCube } from './pos.cube.js';
import { posDatasetOf } from './pos.domain.js';
import { posExamples } from './pos.examples.js';
import { posFixtures } from './pos.fixtures.js';
import * as handlers from './pos.handlers.js';
import type { PosDataset } from './pos.records.js';
import { posSamples } from './pos.samples.js';
import { buildPosDataset, livingOrders } from './pos.seed.js';

/**
 * The Point of Sale vertical under /consumers/{consumer_id}/pos. Every operation resolves the
 * consumer's POS connection and its dataset (pos.context.ts); the rules are in pos.domain.ts and the
 * seeded data in pos.seed.ts. The clock completes open orders: the background task below, and every
 * POS request for its own dataset.
 */
export function registerPos(app: OpenAPIHono<AppEnv>): void {
  registerOperations(app, [
    handlers.getModifiers,
    handlers.getOrders,
    handlers.getOrder,
    handlers.updateOrder,
    handlers.getLocations,
    handlers.getPayments,
    handlers.getSales,
    handlers.getPaymentMethods,
    handlers.getCustomers,
    handlers.createCustomer,
    handlers.getCustomer,
    handlers.getProductCategories,
    handlers.getProducts,
    handlers.getAccountingCategories,
    handlers.getTaxes,
    handlers.getClosure,
    handlers.getObjectives,
    handlers.getReport,
  ]);
}

/**
 * Background task: open orders of the datasets in use (reached once by a request) complete as the
 * sandbox clock passes their time. A dataset is opened only when its next order is due or a write
 * changed it since it was last looked at, so a run costs nothing for the datasets with nothing due.
 */
export function posOrdersTask(services: Services): TickTask {
  const notes = new Map<string, { revision: number | undefined; due: string | null }>();
  return (store) => {
    // What it writes is the sandbox's own bookkeeping (the business announced, the events of it,
    // bounded by the outbox): counted, never refused, or a full world would redo it every run.
    store.bookkeeping();
    // The events published go out by themselves: a write that queues deliveries kicks the worker.
    const world = store.world;
    const now = services.clock.now().toISOString();
    for (const key of store.generatedKeys(POS_DATASETS)) {
      const note = notes.get(key);
      const revision = store.generatedRevision(POS_DATASETS, key);
      if (note && note.revision === revision && (note.due === null || note.due > now)) continue;
      const dataset = store.open<PosDataset>(POS_DATASETS, key);
      if (!dataset) continue;
      settleDataset({ ...services, store }, world, dataset);
      // A run that completed orders changes the revision when its write commits: the next run looks
      // once more, finds nothing due, and notes the new revision.
      notes.set(key, { revision, due: nextDue(dataset) });
    }
  };
}

const POS_DATASETS = 'pos_datasets';

export { MAX_ANNOUNCED_DAYS } from '../../platform/announcements.js';

/**
 * Background task: announces the business as it happens: pos.order.completed for each order the
 * living days drew (see livePosDays) once the clock passes its closing, on every dataset in use, to
 * the webhooks that listen. The world keeps the last instant announced, so a restart announces
 * nothing twice. Nothing is built when no webhook listens.
 */
export function posBusinessTask(services: Services): TickTask {
  return (store) => {
    // What it writes is the sandbox's own bookkeeping (the business announced, the events of it,
    // bounded by the outbox): counted, never refused, or a full world would redo it every run.
    store.bookkeeping();
    const world = store.world;
    const now = store.builtAt();
    const through = announcedThrough(world.sandbox_state[POS_BUSINESS]?.through);
    if (through !== undefined && through >= now) return;
    if (completionsListened(world)) {
      const oldest = oldestAnnounced(now);
      const after = [through ?? '', oldest].reduce((a, b) => (a > b ? a : b));
      for (const key of store.generatedKeys(POS_DATASETS)) {
        const args = store.generatedArgs(POS_DATASETS, key) as ConnectionDatasetArgs | null | undefined;
        const dataset = args ? store.open<PosDataset>(POS_DATASETS, key) : undefined;
        const consumer = dataset ? own(world.consumers, dataset.consumerid) : undefined;
        if (!args || !dataset || !consumer) continue;
        for (const order of livingOrders(dataset, args, after, now)) {
          publishEvent({ ...services, store }, orderCompletedEvent(consumer, dataset, order));
        }
      }
    }
    world.sandbox_state[POS_BUSINESS] = { through: now };
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

/** The Point of Sale vertical, as the app composes it (src/verticals.ts). */
export const posModule: VerticalModule<PosDataset, ConnectionDatasetArgs> = {
  key: 'pos',
  ...oneApi('Point of Sale'),
  envName: 'POS',
  showcase: 9012,
  collection: 'pos_datasets',
  build: buildPosDataset,
  register: registerPos,
  fixtures: posFixtures,
  samples: posSamples,
  examples: posExamples,
  lives: true,
  tasks: { 'pos-orders': posOrdersTask, 'pos-business': posBusinessTask },
  cubes: [posOrdersCube],
  choices: {
    // The locations of a point of sale connection (its dataset is the connection's own, so a link
    // that has no connection yet cannot list them).
    locations: ({ store }, integration, _consumerid, connection) => {
      if (integration.api !== 'Point of Sale' || connection === null) return null;
      return posDatasetOf(store, connection).locations.map((location) => ({
        value: location.id,
        label: location.name,
      }));
    },
  },
};

// What other modules use of this one.
export type { PosOrder, PosOrderLine, PosPaymentStatusValue } from './pos.records.js';
export {
  AddressItem,
  ClosureItem,
  DiscountItem,
  dateParam,
  locationIdParam,
  Mode,
  POSLineItemType,
  POSLocationItem,
  POSPaymentStatus,
  Source,
  TotalTaxItem,
} from './pos.schemas.js';
