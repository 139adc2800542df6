import { z } from '@hono/zod-openapi';
import { serviceError } from '../lib/errors.js';
import type { Sliced } from '../lib/slices.js';
import type { Integration } from '../platform/catalogue.js';
import type { FixtureContext } from '../platform/fixtures/context.js';
import { type PathPart, ruleError } from '../platform/fixtures/errors.js';
import type { FixtureScope, VerticalFixtures, VerticalRecords } from '../platform/fixtures/kit.js';
import type { AnyVerticalModule } from '../platform/vertical-module.js';
import { type ConnectionRecord, type ConsumerRecord, datasetKey } from '../store/world.js';
import type { ConnectionFixtureValue } from './fixtures.schema.js';

/**
 * The records of one connection's verticals. Each vertical declares its block (its schema and how
 * it is applied) in its module's <v>.fixtures.ts; the loader reaches them only through the app's
 * list of verticals, and checks first what every operation of a vertical checks (an active
 * connection of that One API). The block then creates each record the API creates through the
 * domain function of its operation, after the operation's coverage check and its own (the folder,
 * say); records only the connected software creates (an eCommerce product, a POS order) are built
 * under the invariants the seeders keep.
 */

/** The rule a `seeded: false` connection of a vertical whose data is not the connection's breaks. */
export const UNSEEDED_REFUSED = 'The connection cannot be declared without its seeded records';

/** What every vertical operation checks first: the connection is active and of that One API. */
function assertVertical(
  context: FixtureContext,
  connection: ConnectionRecord,
  integration: Integration,
  module: AnyVerticalModule,
  path: readonly PathPart[],
): void {
  const { api, key } = module;
  const refuse = (detail: string) =>
    ruleError(serviceError('noActiveConnection', detail), null, path, context.file);
  if (integration.api !== api) {
    refuse(
      `${integration.name} is an integration of the ${integration.api} API: ${key} records need an integration of the ${api} API`,
    );
  }
  if (connection.status !== 'active') {
    refuse(`The connection is inactive: ${key} records need an active connection`);
  }
}

/**
 * A connection declared `seeded: false`: its dataset of the vertical is opened (an empty block
 * opens it as a block does), then emptied of the block's kinds, so that it holds the document's
 * records alone. A vertical whose data is not the connection's own (a consumer's accounting folders)
 * cannot be held apart: the document is refused.
 */
function* withoutSeededRecords(
  scope: FixtureScope,
  module: AnyVerticalModule & { fixtures: VerticalFixtures },
) {
  const { schema } = module.fixtures;
  yield* module.fixtures.apply(scope, schema.parse({}));
  const datasets = (scope.context.store.world as unknown as Record<string, Record<string, unknown>>)[
    module.collection
  ];
  const key = datasetKey(scope.consumer.consumerid, scope.connection.connectionid);
  const dataset =
    datasets && Object.hasOwn(datasets, key) ? (datasets[key] as Record<string, unknown>) : null;
  if (dataset === null || !(schema instanceof z.ZodObject)) {
    return scope.context.fail(
      [...scope.path.slice(0, -1), 'seeded'],
      UNSEEDED_REFUSED,
      `The ${module.api} API's data of a connection is the consumer's, not the connection's own: it cannot be declared without its seeded records`,
    );
  }
  for (const kind of Object.keys(schema.shape)) {
    const held = dataset[kind];
    if (held !== null && typeof held === 'object' && !Array.isArray(held)) dataset[kind] = {};
  }
}

/**
 * Applies the connection's vertical blocks, in the order of the app's verticals, one slice a record;
 * answers their ids.
 */
export function* applyVerticals(
  context: FixtureContext,
  consumer: ConsumerRecord,
  connection: ConnectionRecord,
  integration: Integration,
  fixture: ConnectionFixtureValue,
  raw: Record<string, unknown>,
  path: readonly PathPart[],
): Sliced<Record<string, VerticalRecords>> {
  const out: Record<string, VerticalRecords> = {};
  for (const module of context.services.verticals) {
    const { key, fixtures } = module;
    // The schema has a block only for a vertical with fixtures: any other key was refused there.
    const block = fixtures ? (fixture as Record<string, unknown>)[key] : undefined;
    const unseeded = fixture.seeded === false && module.api === integration.api;
    if (!fixtures || (block === undefined && !unseeded)) continue;
    const at = [...path, key];
    assertVertical(context, connection, integration, module, at);
    const rawBlock = (raw[key] ?? {}) as Record<string, unknown[]>;
    const scope: FixtureScope = { context, consumer, connection, integration, path: at, raw: rawBlock };
    if (unseeded) yield* withoutSeededRecords(scope, { ...module, fixtures });
    if (block !== undefined) out[key] = yield* fixtures.apply(scope, block);
  }
  return out;
}
