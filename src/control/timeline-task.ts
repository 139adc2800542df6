import { manualClock } from '../lib/clock.js';
import { uuidFrom } from '../lib/ids.js';
import { measure } from '../lib/measure.js';
import { own } from '../lib/own.js';
import { runInSlices, type Sliced } from '../lib/slices.js';
import { applyLifeEvent, type LifeEvent } from '../modules/connections/index.js';
import type { Services } from '../platform/context.js';
import type { FixtureContext, FixtureServices } from '../platform/fixtures/context.js';
import { FixtureError, formatPath, type PathPart, ruleError } from '../platform/fixtures/errors.js';
import { storeRefusal } from '../platform/handle-error.js';
import { slicedWrite } from '../platform/sliced-write.js';
import type { TickTask } from '../platform/ticker.js';
import { activeConnectionOf } from '../platform/transactions.js';
import type { AnyVerticalModule } from '../platform/vertical-module.js';
import type { WorldStore } from '../store/store.js';
import type { ConnectionRecord, ConsumerRecord, TimelineRecord, World } from '../store/world.js';
import type { ConnectionFixtureValue } from './fixtures.schema.js';
import { applyVerticals } from './fixtures.verticals.js';
import { blockModule, blocksOf, CANNOT_APPLY, entrySchema, withInstant } from './timeline.js';

/**
 * The timeline's background work: the events the clock reached, applied in order, each through the
 * same domain functions as the API, whole or not at all. It makes its own writes, each of a bounded
 * share of the events due, its work in slices, so that the requests of the world (and of the other
 * worlds) are answered between them however much the clock's move made due.
 */

/** The most due events one write of the background work applies. */
export const MAX_EVENTS_PER_RUN = 100;
/** The items (elements of their blocks' lists) the events of one write make at most; one event at least. */
const ITEMS_PER_RUN = 250;

type ApplyServices = Pick<
  Services,
  'store' | 'ids' | 'clock' | 'catalogue' | 'caches' | 'config' | 'verticals' | 'ticker' | 'self'
>;

/** An event the API's rules refused: the write of its run is undone, the event marked failed. */
class EventRefused extends Error {
  constructor(
    readonly id: string,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'EventRefused';
  }
}

/**
 * Applies one event at its instant: the services see the clock standing at `at`, so what it creates
 * is dated then. Throws (a FixtureError naming the rule) when the API's rules refuse it.
 */
function* applyEvent(store: WorldStore, services: ApplyServices, record: TimelineRecord): Sliced<void> {
  const world = store.world;
  const clock = manualClock(new Date(record.at));
  const consumer = own(world.consumers, record.consumerid);
  const path: PathPart[] = ['timeline', record.id];
  const refuse: (detail: string) => never = (detail) => {
    throw new FixtureError(400, CANNOT_APPLY, { path: formatPath(path), detail, file: null });
  };
  if (!consumer) refuse('The consumer no longer exists');
  if (record.event) {
    const connection = record.connectionid ? own(world.connections, record.connectionid) : undefined;
    if (!connection) refuse('The connection no longer exists');
    applyLifeEvent(
      { ...services, store, clock },
      consumer,
      connection,
      record.event as LifeEvent,
      record.at,
      record.until,
    );
    return;
  }
  const blocks = withInstant(blocksOf(world, record) ?? {}, record.at);
  const parsed = entrySchema(services.verticals).safeParse({
    at: record.at,
    consumer: record.consumerid,
    ...blocks,
  });
  if (!parsed.success) refuse(parsed.error.issues[0]?.message ?? 'The records no longer fit the schema');
  const module = blockModule(services.verticals, parsed.data);
  if (!module) refuse('No vertical block');
  const connection = connectionFor(world, services, consumer, record, module);
  if (!connection) refuse(`The consumer has no active connection of the ${module.api} API`);
  const integration = services.catalogue.get(connection.integrationid);
  if (!integration) refuse('The integration of the connection is unknown');
  const fixtureServices: FixtureServices = { ...services, clock };
  const context: FixtureContext = {
    store,
    services: fixtureServices,
    file: null,
    idFor: (given, at) =>
      given?.toLowerCase() ?? uuidFrom('timeline', world.meta.seed, record.id, formatPath(at)),
    at: (at, value, work) => {
      try {
        return work();
      } catch (error) {
        return ruleError(error, value, at, null);
      }
    },
    fail: (at, rule, detail, status = 400) => {
      throw new FixtureError(status, rule, { path: formatPath(at), detail, file: null });
    },
    now: () => record.at,
  };
  record.records = yield* applyVerticals(
    context,
    consumer,
    connection,
    integration,
    parsed.data as unknown as ConnectionFixtureValue,
    blocks as Record<string, unknown>,
    path,
  );
  record.connectionid = connection.connectionid;
}

function connectionFor(
  world: World,
  services: ApplyServices,
  consumer: ConsumerRecord,
  record: TimelineRecord,
  module: AnyVerticalModule,
): ConnectionRecord | undefined {
  if (record.connectionid) return own(world.connections, record.connectionid);
  return activeConnectionOf(world, consumer.consumerid, module.api, (id) => services.catalogue.get(id)?.api);
}

/** Applies the events of a run, in order (inside its write); a refused one throws EventRefused. */
function* applyRun(store: WorldStore, services: ApplyServices, ids: readonly string[]): Sliced<void> {
  for (const id of ids) {
    const record = own(store.world.timeline, id);
    if (record?.status !== 'pending') continue;
    try {
      yield* applyEvent(store, services, record);
    } catch (error) {
      const reason = error instanceof FixtureError ? `${error.message}: ${error.detail}` : String(error);
      throw new EventRefused(id, reason);
    }
    record.status = 'applied';
    record.applied_on = record.at;
    yield;
  }
}

/** Marks an event failed, with the reason, in a write of its own (nothing of it was kept). */
function markFailed(store: WorldStore, id: string, reason: string): Promise<void> {
  return store.transact((write) => {
    const failed = own(write.world.timeline, id);
    if (failed?.status !== 'pending') return;
    failed.status = 'failed';
    failed.error = reason;
    failed.applied_on = failed.at;
  });
}

/** The pending events the clock reached, by instant (then as declared). */
function dueEvents(world: World, now: string): TimelineRecord[] {
  return Object.values(world.timeline)
    .filter((record) => record.status === 'pending' && record.at <= now)
    .sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
}

/** The items an event's block makes (at least one an event, counted no further than a run takes). */
function itemsOf(world: World, record: TimelineRecord): number {
  const blocks = blocksOf(world, record);
  if (!blocks) return 1;
  return Math.max(1, measure(blocks, { items: ITEMS_PER_RUN, bytes: Number.POSITIVE_INFINITY }).items);
}

/**
 * Background task (it makes its own writes: register it with 'own'): applies the events the clock
 * reached, in order, in runs of at most MAX_EVENTS_PER_RUN events and ITEMS_PER_RUN items, each a
 * write of its own run in slices. An event the rules refuse is marked failed with the reason, its run
 * undone and applied again without it; a run the world cannot keep (full, a record too large) is
 * applied again one event a write, and the event that does not fit is marked failed with the reason.
 */
export function timelineTask(services: ApplyServices): TickTask {
  return async (store) => {
    const world = store.world;
    const due = dueEvents(world, services.clock.now().toISOString()).map((record) => record.id);
    let next = 0;
    let single = false;
    while (next < due.length) {
      const run: string[] = [];
      let items = 0;
      while (next + run.length < due.length && run.length < (single ? 1 : MAX_EVENTS_PER_RUN)) {
        if (run.length > 0 && items >= ITEMS_PER_RUN) break;
        const id = due[next + run.length] as string;
        const record = own(store.world.timeline, id);
        items += record ? itemsOf(store.world, record) : 0;
        run.push(id);
      }
      try {
        await slicedWrite(store, (write) => runInSlices(applyRun(write, services, run)));
        next += run.length;
        single = false;
      } catch (error) {
        if (error instanceof EventRefused) {
          await markFailed(store, error.id, error.reason);
          continue;
        }
        const refused = storeRefusal(error);
        if (!refused) throw error;
        if (run.length > 1) {
          single = true;
          continue;
        }
        await markFailed(
          store,
          run[0] as string,
          `${refused.message}${refused.detail ? `: ${refused.detail}` : ''}`,
        );
        next += 1;
      }
    }
  };
}
