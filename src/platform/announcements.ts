import { own } from '../lib/own.js';
import type { WorldStore } from '../store/store.js';
import type { ConnectionRecord, ConsumerRecord, World } from '../store/world.js';
import type { ApiName } from './catalogue.js';
import type { Services } from './context.js';
import { type ConnectionDatasetArgs, connectionDatasetRef } from './datasets.js';
import { addDays } from './seeding/vertical-data.js';
import type { TickTask } from './ticker.js';

/**
 * How a vertical announces the business its living days generate (events for what happened as the
 * clock passed it): the world keeps, per vertical, the last instant announced (`sandbox_state`), so
 * a restart announces nothing twice, and a clock moved far at once announces the last days only.
 * What is announced is the business of every connection a listening webhook reaches, read or not:
 * a function of the world and the clock's moves, never of which datasets clients read.
 */

/** A clock moved further than this at once announces the business of these last days only. */
export const MAX_ANNOUNCED_DAYS = 31;

/**
 * The connections of a vertical whose business one run announces, at most: a world with more
 * connections that a listening webhook reaches (the large world) announces the first ones, in the
 * world's order, so that a run's work stays bounded.
 */
export const MAX_ANNOUNCING_CONNECTIONS = 64;

/** The instant announced through: a day (as earlier worlds kept it) stands for its last instant. */
export function announcedThrough(kept: string | undefined): string | undefined {
  return kept !== undefined && kept.length === 10 ? `${kept}T23:59:59.999Z` : kept;
}

/** The oldest instant a run at `now` announces business from. */
export const oldestAnnounced = (now: string): string =>
  `${addDays(now.slice(0, 10), -MAX_ANNOUNCED_DAYS)}T00:00:00.000Z`;

/** Whether an active webhook listens to `event`: nothing is built to announce when none does. */
export const eventListened = (world: World, event: string): boolean =>
  Object.values(world.webhooks).some((webhook) => webhook.status === 'active' && webhook.event === event);

/** What a vertical announces of its business, and how (see businessTask). */
export interface Business<D, E> {
  /** The world's note (sandbox_state) of the last instant announced. */
  cursor: string;
  /** The webhook event announced. */
  event: string;
  /** The One API whose connections do the business, and the collection of their datasets. */
  api: ApiName;
  collection: string;
  /** Whether an active webhook listening to the event reaches the consumer's connection. */
  listens(world: World, consumer: ConsumerRecord, connection: ConnectionRecord): boolean;
  /**
   * The events of the business a dataset's living days drew after `after` and by `through`
   * (instants), in order; `until` is the day its history ends.
   */
  events(dataset: D, until: string, consumer: ConsumerRecord, after: string, through: string): E[];
  /** Publishes one event, inside the task's write. */
  publish(services: Services, store: WorldStore, event: E): void;
}

/** The active connections of `api` that a listening webhook reaches, in the world's order, at most MAX. */
function announcing<D, E>(services: Services, world: World, business: Business<D, E>) {
  const out: { consumer: ConsumerRecord; connection: ConnectionRecord }[] = [];
  for (const connection of Object.values(world.connections)) {
    if (out.length >= MAX_ANNOUNCING_CONNECTIONS) break;
    if (connection.status !== 'active') continue;
    if (services.catalogue.get(connection.integrationid)?.api !== business.api) continue;
    const consumer = own(world.consumers, connection.consumerid);
    if (consumer && business.listens(world, consumer, connection)) out.push({ consumer, connection });
  }
  return out;
}

/**
 * Background task (its writes its own): announces a vertical's business as it happens, once the
 * clock passed it, to the webhooks that listen. Each dataset it reads is built first, in slices and
 * apart from any write (the other requests and worlds are answered meanwhile); the events are
 * then published in one write, with the instant announced through. Nothing is built when no webhook
 * listens to the event.
 */
export function businessTask<D extends object, E>(services: Services, business: Business<D, E>): TickTask {
  return async (store) => {
    const world = store.world;
    const now = store.builtAt();
    const through = announcedThrough(world.sandbox_state[business.cursor]?.through);
    if (through !== undefined && through >= now) return;
    const events: E[] = [];
    if (eventListened(world, business.event)) {
      const after = [through ?? '', oldestAnnounced(now)].reduce((a, b) => (a > b ? a : b));
      for (const { consumer, connection } of announcing(services, world, business)) {
        const { collection, key, args } = connectionDatasetRef(business.collection, connection);
        // A dataset of a world file written before origins keeps the day its history ended.
        const kept = store.generatedArgs(collection, key) as ConnectionDatasetArgs | null | undefined;
        await store.prepare(collection, key, kept ?? args);
        if (store.world !== world) return;
        const dataset = store.peek<D>(collection, key, kept ?? args);
        const until = kept?.until ?? store.origin().slice(0, 10);
        events.push(...business.events(dataset, until, consumer, after, now));
      }
    }
    await store.transact((write) => {
      // A reset replaced the world meanwhile: what was found is the old world's.
      if (store.world !== world) return;
      // What it writes is the sandbox's own bookkeeping (the business announced, the events of it,
      // bounded by the outbox): counted, never refused, or a full world would redo it every run.
      write.bookkeeping();
      for (const event of events) business.publish(services, write, event);
      write.world.sandbox_state[business.cursor] = { through: now };
    });
  };
}
