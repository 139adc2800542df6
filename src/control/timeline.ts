import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { manualClock } from '../lib/clock.js';
import { messages } from '../lib/errors.js';
import { uuidFrom } from '../lib/ids.js';
import { own } from '../lib/own.js';
import { applyLifeEvent, type LifeEvent, lifeRefusal } from '../modules/connections/index.js';
import type { AppEnv, Services } from '../platform/context.js';
import type { FixtureContext, FixtureServices } from '../platform/fixtures/context.js';
import { FixtureError, formatPath, type PathPart, ruleError } from '../platform/fixtures/errors.js';
import { admin, errorResponses, jsonBody, jsonContent } from '../platform/openapi.js';
import { RollBack, type TickTask } from '../platform/ticker.js';
import { activeConnectionOf } from '../platform/transactions.js';
import type { AnyVerticalModule } from '../platform/vertical-module.js';
import type { WorldStore } from '../store/store.js';
import type { ConnectionRecord, ConsumerRecord, TimelineRecord, World } from '../store/world.js';
import {
  type ConnectionFixtureValue,
  MAX_TIMELINE_EVENTS,
  type TimelineEntryValue,
  timelineEntry,
} from './fixtures.schema.js';
import { applyVerticals } from './fixtures.verticals.js';

/**
 * The timeline: events declared to happen at given instants (a large order, a refund, an invoice
 * paid late, a credential expiring, a burst of sales on a Saturday), applied when the sandbox clock
 * reaches them, each through the same domain functions as the API (the vertical blocks of fixture
 * documents, and the connection's life). Declared with POST /__sandbox/timeline or a fixture
 * document's `timeline`; each event is applied whole or not at all (a refusal marks it failed, with
 * the reason, and changes nothing else).
 */

/** The most due events one run of the background work applies (the rest in the runs after it). */
export const MAX_EVENTS_PER_RUN = 100;

/**
 * The most events a world keeps (those that happened included): a declaration makes room by dropping
 * the oldest that happened or failed, and is refused with 413 when those to come would pass it.
 */
export const MAX_WORLD_TIMELINE = 10_000;

const tags = ['Sandbox control'];

const CANNOT_APPLY = 'The timeline names something it cannot apply to';

const TimelineItem = z
  .object({
    id: z.string(),
    at: z.string(),
    consumerid: z.string(),
    connectionid: z.string().nullable(),
    event: z.string().nullable(),
    until: z.string().nullable(),
    blocks: z.record(z.string(), z.unknown()).nullable(),
    status: z.enum(['pending', 'applied', 'failed']),
    declared_on: z.string(),
    applied_on: z.string().nullable(),
    records: z.record(z.string(), z.record(z.string(), z.array(z.string()))).nullable(),
    error: z.string().nullable(),
  })
  .openapi('SandboxTimelineEvent');

const TimelineList = z.object({ events: z.array(TimelineItem) }).openapi('SandboxTimeline');

export const getTimelineRoute = createRoute({
  method: 'get',
  path: '/__sandbox/timeline',
  operationId: 'sandbox_get_timeline',
  tags,
  summary: 'The timeline: the events declared, by instant, with what each did',
  ...admin,
  responses: {
    200: jsonContent(TimelineList, 'Every event, pending, applied or failed'),
    ...errorResponses([401]),
  },
});

export const declareTimelineRoute = createRoute({
  method: 'post',
  path: '/__sandbox/timeline',
  operationId: 'sandbox_declare_timeline',
  tags,
  summary: 'Declare events to happen when the sandbox clock reaches them',
  description:
    "`{\"events\": [...]}`: each at an instant, for a consumer's connection, either the records of one vertical block (as a fixture document's connection declares them: a POS order, a refund, an invoice payment...) or an event of the connection's life. Applied when the clock reaches them, in order, each whole or not at all. See docs/living-world.md.",
  ...admin,
  request: {
    body: jsonBody(
      z.object({ events: z.array(z.record(z.string(), z.unknown())) }).openapi('SandboxTimelineDeclaration'),
      'The events',
    ),
  },
  responses: {
    200: jsonContent(TimelineList, 'The events declared'),
    ...errorResponses([400, 401, 413, 422], { serviceError422: true }),
  },
});

export const clearTimelineRoute = createRoute({
  method: 'delete',
  path: '/__sandbox/timeline',
  operationId: 'sandbox_clear_timeline',
  tags,
  summary: 'Drop the events still to come',
  ...admin,
  responses: {
    200: jsonContent(TimelineList, 'The events kept: those that happened'),
    ...errorResponses([401]),
  },
});

/** What a block may write for "the instant of the event" (a repeated event's own instant each time). */
export const AT_TOKEN = '{{at}}';

/** A value with every string equal to AT_TOKEN replaced by the instant. */
export function withInstant<T>(value: T, at: string): T {
  if (value === AT_TOKEN) return at as T;
  if (Array.isArray(value)) return value.map((item) => withInstant(item, at)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, withInstant(item, at)]),
    ) as T;
  }
  return value;
}

/** An event as declared, its block's `{{at}}` read as its instant: what the schema checks. */
export function checkedEntry(raw: unknown): unknown {
  const at = (raw as { at?: unknown } | null)?.at;
  return typeof at === 'string' && raw !== null && typeof raw === 'object' ? withInstant(raw, at) : raw;
}

/** The events of a world, by instant (then as declared). */
export function timelineOf(world: World): TimelineRecord[] {
  return Object.values(world.timeline ?? {}).sort(
    (a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id),
  );
}

/** The schema of one event, once per list of verticals. */
const entrySchemas = new WeakMap<readonly AnyVerticalModule[], ReturnType<typeof timelineEntry>>();
function entrySchema(verticals: readonly AnyVerticalModule[]) {
  let schema = entrySchemas.get(verticals);
  if (!schema) {
    schema = timelineEntry(verticals);
    entrySchemas.set(verticals, schema);
  }
  return schema;
}

type DeclareServices = Pick<Services, 'ids' | 'clock' | 'catalogue' | 'verticals'>;

/**
 * Declares events into the world (inside a write): checks each (its consumer, its connection, that
 * its block fits the connection's One API), then records it, a `repeat` as that many events.
 * `consumerOf` resolves the consumer named (an id, or a ref of a fixture document).
 */
export function declareTimeline(
  store: WorldStore,
  services: DeclareServices,
  entries: readonly TimelineEntryValue[],
  path: readonly PathPart[],
  consumerOf: (named: string) => string = (named) => named,
  file: string | null = null,
  raws: readonly unknown[] = [],
): TimelineRecord[] {
  const world = store.world;
  const fail: (at: readonly PathPart[], detail: string) => never = (at, detail) => {
    throw new FixtureError(400, CANNOT_APPLY, { path: formatPath(at), detail, file });
  };
  const total = entries.reduce((sum, entry) => sum + entry.repeat, 0);
  if (total > MAX_TIMELINE_EVENTS) {
    fail(path, `At most ${MAX_TIMELINE_EVENTS} events at once (repeats counted); ${total} were given`);
  }
  makeTimelineRoom(world, total, path, file);
  const now = services.clock.now().toISOString();
  const out: TimelineRecord[] = [];
  entries.forEach((entry, index) => {
    const at = [...path, index];
    const consumerid = consumerOf(entry.consumer).toLowerCase();
    const consumer = own(world.consumers, consumerid);
    if (!consumer) fail([...at, 'consumer'], `No consumer '${entry.consumer}'`);
    const module = blockModule(services.verticals, entry);
    let connectionid: string | null = null;
    if (entry.connection !== undefined) {
      const connection = own(world.connections, entry.connection.toLowerCase());
      if (!connection || connection.consumerid !== consumerid) {
        fail([...at, 'connection'], `The consumer has no connection '${entry.connection}'`);
      }
      connectionid = connection.connectionid;
      const refusal = entry.event ? lifeRefusal(services, connection, entry.event) : null;
      if (refusal) fail([...at, 'event'], refusal);
      const api = services.catalogue.get(connection.integrationid)?.api;
      if (module && api !== module.api) {
        fail([...at, module.key], `The connection is of the ${api} API, not ${module.api}`);
      }
    } else if (module) {
      const found = activeConnectionOf(
        world,
        consumerid,
        module.api,
        (id) => services.catalogue.get(id)?.api,
      );
      if (!found) fail([...at, module.key], `The consumer has no active connection of the ${module.api} API`);
    } else {
      fail([...at, 'connection'], 'An event of the connection names its connection');
    }
    // The block as written (its `{{at}}` kept, read as each instant when it happens).
    const written = (raws[index] ?? entry) as Record<string, unknown>;
    const blocks = module ? { [module.key]: written[module.key] } : null;
    for (let time = 0; time < entry.repeat; time++) {
      const instant = new Date(Date.parse(entry.at) + time * entry.every_seconds * 1000).toISOString();
      const record: TimelineRecord = {
        id: services.ids.next('timeline'),
        at: instant,
        consumerid,
        connectionid,
        event: entry.event ?? null,
        until: entry.until ? new Date(entry.until).toISOString() : null,
        blocks,
        status: 'pending',
        declared_on: now,
        applied_on: null,
        records: null,
        error: null,
      };
      world.timeline[record.id] = record;
      out.push(record);
    }
  });
  return out;
}

/**
 * Room for `count` more events: the oldest events that happened (or failed) go, as many as needed;
 * refused (413, nothing dropped) when the events to come would be more than a world keeps.
 */
function makeTimelineRoom(world: World, count: number, path: readonly PathPart[], file: string | null): void {
  const kept = timelineOf(world);
  const toCome = kept.filter((record) => record.status === 'pending').length;
  if (toCome + count > MAX_WORLD_TIMELINE) {
    throw new FixtureError(413, messages.listFull('timeline events', MAX_WORLD_TIMELINE), {
      path: formatPath(path),
      detail: `${toCome} are still to come and ${count} were declared: DELETE /__sandbox/timeline drops those to come`,
      file,
    });
  }
  let over = kept.length + count - MAX_WORLD_TIMELINE;
  for (const record of kept) {
    if (over <= 0) break;
    if (record.status === 'pending') continue;
    delete world.timeline[record.id];
    over -= 1;
  }
}

/** The vertical whose block an event holds, if it holds one. */
function blockModule(verticals: readonly AnyVerticalModule[], entry: object): AnyVerticalModule | undefined {
  return verticals.find((module) => module.fixtures && module.key in entry);
}

type ApplyServices = Pick<
  Services,
  'store' | 'ids' | 'clock' | 'catalogue' | 'caches' | 'config' | 'verticals' | 'ticker' | 'self'
>;

/**
 * Applies one event at its instant: the services see the clock standing at `at`, so what it creates
 * is dated then. Throws (a FixtureError naming the rule) when the API's rules refuse it.
 */
function applyEvent(store: WorldStore, services: ApplyServices, record: TimelineRecord): void {
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
  const blocks = withInstant(record.blocks ?? {}, record.at);
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
  record.records = applyVerticals(
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

/**
 * Background task: applies the events the clock reached, in order. An event refused by the rules
 * is marked failed (with the reason) in a write of its own, after this one is rolled back, and the
 * run starts again, so the other events still apply and nothing of the refused one is kept.
 */
export function timelineTask(services: Services): TickTask {
  return (store) => {
    const world = store.world;
    const now = services.clock.now().toISOString();
    const due = Object.values(world.timeline)
      .filter((record) => record.status === 'pending' && record.at <= now)
      .sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
    if (due.length === 0) return;
    // A run applies a bounded share, in its own write, so that requests waiting for the world get
    // their turn between runs; the next run goes on (a move of the clock waits for all of them).
    if (due.length > MAX_EVENTS_PER_RUN) void services.ticker.run();
    for (const record of due.slice(0, MAX_EVENTS_PER_RUN)) {
      try {
        applyEvent(store, services, record);
      } catch (error) {
        const reason = error instanceof FixtureError ? `${error.message}: ${error.detail}` : String(error);
        const id = record.id;
        void store.transactApart((write) => {
          const failed = own(write.world.timeline, id);
          if (failed?.status !== 'pending') return;
          failed.status = 'failed';
          failed.error = reason;
          failed.applied_on = failed.at;
        });
        void services.ticker.run();
        throw new TimelineRefusal(reason);
      }
      record.status = 'applied';
      record.applied_on = record.at;
    }
  };
}

/** A refused event: its write is rolled back; the reason is kept on the event. */
export class TimelineRefusal extends RollBack {
  constructor(reason: string) {
    super(`a timeline event was refused: ${reason}`);
    this.name = 'TimelineRefusal';
  }
}

export function registerTimelineControl(app: OpenAPIHono<AppEnv>): void {
  app.openapi(getTimelineRoute, (c) => c.json({ events: timelineOf(c.get('store').world) }, 200));
  app.openapi(declareTimelineRoute, async (c) => {
    const body = c.req.valid('json');
    const verticals = c.get('verticals');
    const parsed = z
      .array(entrySchema(verticals))
      .max(MAX_TIMELINE_EVENTS)
      .safeParse(body.events.map(checkedEntry));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new FixtureError(422, 'Validation error', {
        path: formatPath(['events', ...((issue?.path ?? []) as PathPart[])]),
        detail: issue?.message ?? '',
        file: null,
      });
    }
    const services = {
      ids: c.get('ids'),
      clock: c.get('clock'),
      catalogue: c.get('catalogue'),
      verticals,
    };
    const declared = await c
      .get('store')
      .transact((store) =>
        declareTimeline(store, services, parsed.data, ['events'], undefined, null, body.events),
      );
    // Events already due happen now.
    await c.get('ticker').run();
    const world = c.get('store').world;
    return c.json({ events: declared.map((record) => own(world.timeline, record.id) ?? record) }, 200);
  });
  app.openapi(clearTimelineRoute, async (c) => {
    const kept = await c.get('store').transact((store) => {
      for (const record of Object.values(store.world.timeline)) {
        if (record.status === 'pending') delete store.world.timeline[record.id];
      }
      return timelineOf(store.world);
    });
    return c.json({ events: kept }, 200);
  });
}
