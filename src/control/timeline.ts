import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { messages } from '../lib/errors.js';
import { guidePath } from '../lib/guides.js';
import { own } from '../lib/own.js';
import { runInSlices, type Sliced } from '../lib/slices.js';
import { lifeRefusal } from '../modules/connections/index.js';
import type { AppEnv, Services } from '../platform/context.js';
import { FixtureError, formatPath, type PathPart } from '../platform/fixtures/errors.js';
import { admin, errorResponses, jsonBody, jsonContent } from '../platform/openapi.js';
import { slicedWrite } from '../platform/sliced-write.js';
import { activeConnectionOf } from '../platform/transactions.js';
import type { AnyVerticalModule } from '../platform/vertical-module.js';
import type { WorldStore } from '../store/store.js';
import type { TimelineRecord, World } from '../store/world.js';
import { type TimelineEntryValue, timelineEntry } from './fixtures.schema.js';
import { assertTimelineBudget } from './timeline-budget.js';

/**
 * The timeline: events declared to happen at given instants (a large order, a refund, an invoice
 * paid late, a credential expiring, a burst of sales on a Saturday), applied when the sandbox clock
 * reaches them, each through the same domain functions as the API (the vertical blocks of fixture
 * documents, and the connection's life). Declared with POST /__sandbox/timeline or a fixture
 * document's `timeline`; each event is applied whole or not at all (a refusal marks it failed, with
 * the reason, and changes nothing else).
 */

const tags = ['Sandbox control'];

export const CANNOT_APPLY = 'The timeline names something it cannot apply to';

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
  description: `\`{"events": [...]}\`: each at an instant, for a consumer's connection, either the records of one vertical block (as a fixture document's connection declares them: a POS order, a refund, an invoice payment...) or an event of the connection's life. Applied when the clock reaches them, in order, each whole or not at all. See [the timeline](${guidePath('living-world', 'the-timeline-business-on-a-script')}).`,
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

/**
 * The most events a world keeps (those that happened included): a declaration makes room by dropping
 * the oldest that happened or failed, and is refused with 413 when those to come would pass it.
 */
export const MAX_WORLD_TIMELINE = 10_000;

/** The events of a world, by instant (then as declared). */
export function timelineOf(world: World): TimelineRecord[] {
  return Object.values(world.timeline ?? {}).sort(
    (a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id),
  );
}

/** The block of an event: its own, or, for a repeat of a burst, the first event's (kept once). */
export function blocksOf(world: World, record: TimelineRecord): Record<string, unknown> | null {
  if (record.blocks || record.burst === undefined) return record.blocks;
  return own(world.timeline, record.burst)?.blocks ?? null;
}

/** An event as the control endpoints answer it (SandboxTimelineEvent): its block shown on each repeat. */
function wireEvent(world: World, record: TimelineRecord): z.infer<typeof TimelineItem> {
  const { burst: _burst, ...event } = record;
  return { ...event, blocks: blocksOf(world, record) };
}

/** The schema of one event, once per list of verticals. */
const entrySchemas = new WeakMap<readonly AnyVerticalModule[], ReturnType<typeof timelineEntry>>();
export function entrySchema(verticals: readonly AnyVerticalModule[]) {
  let schema = entrySchemas.get(verticals);
  if (!schema) {
    schema = timelineEntry(verticals);
    entrySchemas.set(verticals, schema);
  }
  return schema;
}

type DeclareServices = Pick<Services, 'ids' | 'clock' | 'catalogue' | 'verticals'>;

/**
 * Declares events into the world (inside a write), one slice an event: checks each (its consumer, its
 * connection, that its block fits the connection's One API), then records it, a `repeat` as that many
 * events, whose block the first of them keeps once. `consumerOf` resolves the consumer named (an id,
 * or a ref of a fixture document). The budget of the declaration was checked on what was sent
 * (assertTimelineBudget) before.
 */
export function* declareTimeline(
  store: WorldStore,
  services: DeclareServices,
  entries: readonly TimelineEntryValue[],
  path: readonly PathPart[],
  consumerOf: (named: string) => string = (named) => named,
  file: string | null = null,
  raws: readonly unknown[] = [],
): Sliced<TimelineRecord[]> {
  const world = store.world;
  const fail: (at: readonly PathPart[], detail: string) => never = (at, detail) => {
    throw new FixtureError(400, CANNOT_APPLY, { path: formatPath(at), detail, file });
  };
  const total = entries.reduce((sum, entry) => sum + entry.repeat, 0);
  makeTimelineRoom(world, total, path, file);
  const now = services.clock.now().toISOString();
  const out: TimelineRecord[] = [];
  for (const [index, entry] of entries.entries()) {
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
    let first: string | undefined;
    for (let time = 0; time < entry.repeat; time++) {
      const instant = new Date(Date.parse(entry.at) + time * entry.every_seconds * 1000).toISOString();
      const record: TimelineRecord = {
        id: services.ids.next('timeline'),
        at: instant,
        consumerid,
        connectionid,
        event: entry.event ?? null,
        until: entry.until ? new Date(entry.until).toISOString() : null,
        // Kept once, by the first of a burst: the world holds (and stores) a repeated block once.
        blocks: first === undefined ? blocks : null,
        ...(first !== undefined && blocks ? { burst: first } : {}),
        status: 'pending',
        declared_on: now,
        applied_on: null,
        records: null,
        error: null,
      };
      first ??= record.id;
      world.timeline[record.id] = record;
      out.push(record);
      yield;
    }
  }
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
export function blockModule(
  verticals: readonly AnyVerticalModule[],
  entry: object,
): AnyVerticalModule | undefined {
  return verticals.find((module) => module.fixtures && module.key in entry);
}

export function registerTimelineControl(app: OpenAPIHono<AppEnv>): void {
  app.openapi(getTimelineRoute, (c) => {
    const world = c.get('store').world;
    return c.json({ events: timelineOf(world).map((record) => wireEvent(world, record)) }, 200);
  });
  app.openapi(declareTimelineRoute, async (c) => {
    const body = c.req.valid('json');
    // Refused past its budget before any of it is read further.
    assertTimelineBudget(body.events, ['events'], null);
    const verticals = c.get('verticals');
    const parsed = z.array(entrySchema(verticals)).safeParse(body.events.map(checkedEntry));
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
    const declared = await slicedWrite(c.get('store'), (store) =>
      runInSlices(declareTimeline(store, services, parsed.data, ['events'], undefined, null, body.events)),
    );
    // Events already due happen now.
    await c.get('ticker').run();
    const world = c.get('store').world;
    return c.json(
      { events: declared.map((record) => wireEvent(world, own(world.timeline, record.id) ?? record)) },
      200,
    );
  });
  app.openapi(clearTimelineRoute, async (c) => {
    const kept = await c.get('store').transact((store) => {
      for (const record of Object.values(store.world.timeline)) {
        if (record.status === 'pending') delete store.world.timeline[record.id];
      }
      return timelineOf(store.world).map((record) => wireEvent(store.world, record));
    });
    return c.json({ events: kept }, 200);
  });
}
