import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { guidePath } from '../lib/guides.js';
import { runAtOnce, runInSlices } from '../lib/slices.js';
import type { AppEnv, Services } from '../platform/context.js';
import type { FixtureServices } from '../platform/fixtures/context.js';
import { errorResponses, jsonBody, jsonContent } from '../platform/openapi.js';
import { slicedWrite } from '../platform/sliced-write.js';
import type { AnyVerticalModule } from '../platform/vertical-module.js';
import type { Store, WorldStore } from '../store/store.js';
import { buildFixture, type FixtureBuild } from './fixtures.domain.js';
import { FixtureResult, type FixtureResultValue, fixtureJsonSchema } from './fixtures.schema.js';
import { type FixtureSource, fixtureInput, placed } from './fixtures.source.js';
import { admin } from './sandbox.routes.js';

export { FixtureError } from '../platform/fixtures/errors.js';
export type { FixtureResultValue as FixtureResult } from './fixtures.schema.js';
export type { FixtureSource } from './fixtures.source.js';

/**
 * Your own world, declared: a fixture document loaded at start (createApp's and startSandbox's
 * `fixtures`, the command line's --fixtures), by the control endpoint, or by `loadFixtures`. Each
 * load is one write: it applies wholly or not at all.
 */

const tags = ['Sandbox control'];

export const loadFixturesRoute = createRoute({
  method: 'post',
  path: '/__sandbox/fixtures',
  operationId: 'sandbox_load_fixtures',
  tags,
  summary:
    'Add a declared world (consumers, connections, vertical records, webhooks...) or replace the seeded one',
  description: `The body is a fixture document (GET /__sandbox/fixtures/schema; [the fixtures guide](${guidePath('fixtures')})). Every record goes through the rules of the API operation that creates it, in one write: a refusal (422 for a document that does not match the schema, 400 for a record the API would refuse) names the JSON path and the rule, and leaves the world as it was.`,
  ...admin,
  request: {
    body: jsonBody(
      z.record(z.string(), z.unknown()).openapi('SandboxFixtureDocument', {
        description: 'A fixture document: see GET /__sandbox/fixtures/schema',
      }),
      'The fixture document',
    ),
  },
  responses: {
    200: jsonContent(FixtureResult, 'What was created, with the ids, in the order of the document'),
    ...errorResponses([400, 401, 413, 422], { serviceError422: true }),
  },
});

export const fixtureSchemaRoute = createRoute({
  method: 'get',
  path: '/__sandbox/fixtures/schema',
  operationId: 'sandbox_get_fixtures_schema',
  tags,
  summary: 'The JSON Schema of fixture documents',
  ...admin,
  responses: {
    200: jsonContent(z.record(z.string(), z.unknown()), 'A JSON Schema (draft 2020-12)'),
    ...errorResponses([401]),
  },
});

/** The JSON Schema served, once per list of verticals (each app's). */
const schemaCache = new WeakMap<readonly AnyVerticalModule[], Record<string, unknown>>();

/** The services of a request, as a fixture needs them (the request's origin stands for the sandbox's). */
function requestServices(c: Context<AppEnv>): FixtureServices {
  return {
    ids: c.get('ids'),
    clock: c.get('clock'),
    catalogue: c.get('catalogue'),
    caches: c.get('caches'),
    config: c.get('config'),
    verticals: c.get('verticals'),
    self: c.get('self'),
    requestOrigin: new URL(c.req.url).origin,
  };
}

export function registerFixtureControl(app: OpenAPIHono<AppEnv>): void {
  app.openapi(loadFixturesRoute, async (c) => {
    // One write of its own (control endpoints make their own): a refusal rolls everything back.
    const result = await loadInSlices(c.get('store'), requestServices(c), c.req.valid('json'), null);
    // Timeline events the clock already reached happen now.
    if (result.timeline) await c.get('ticker').run();
    return c.json(result, 200);
  });
  app.openapi(fixtureSchemaRoute, (c) => {
    const verticals = c.get('verticals');
    let schema = schemaCache.get(verticals);
    if (!schema) {
      schema = fixtureJsonSchema(verticals);
      schemaCache.set(verticals, schema);
    }
    return c.json(schema, 200);
  });
}

/**
 * Applies a document in one write of the store's own, in slices (the store's reads wait for it; the
 * other worlds are answered meanwhile). Rejects with a FixtureError, the world left as it was.
 */
function loadInSlices(
  store: WorldStore,
  services: FixtureServices,
  input: unknown,
  file: string | null,
): Promise<FixtureResultValue> {
  return slicedWrite(store, async (scope) => {
    const { result, replaceWith, builtIn } = await runInSlices(buildFixture(scope, services, input, file));
    if (replaceWith) await scope.replace(replaceWith, builtIn ?? undefined);
    return result;
  });
}

/** Loads a fixture into a running app, in one write of its own. Rejects with a FixtureError. */
export async function loadFixtures(
  app: { services: Services },
  source: FixtureSource,
): Promise<FixtureResultValue> {
  const { input, file, text } = fixtureInput(source);
  return loadInSlices(app.services.store, app.services, input, file).catch((error: unknown) => {
    throw placed(error, text);
  });
}

/**
 * Loads a fixture while an app is being created (createApp is synchronous): the write runs at once,
 * so a refusal is thrown here, with the world left as it was. A store kept in a file has the change
 * journaled just after.
 */
export function loadFixturesNow(
  store: Store,
  services: FixtureServices,
  source: FixtureSource,
): FixtureResultValue {
  const { input, file, text } = fixtureInput(source);
  let outcome: { build: FixtureBuild } | { error: unknown } | undefined;
  const written = store.transact((scope) => {
    try {
      const build = runAtOnce(buildFixture(scope, services, input, file));
      outcome = { build };
      return build;
    } catch (error) {
      outcome = { error };
      throw error;
    }
  });
  const report = (error: unknown) =>
    console.error('[unified-api-sandbox] the fixtures could not be stored:', error);
  written.catch((error: unknown) => {
    if (outcome && 'build' in outcome) report(error);
  });
  if (outcome === undefined) throw new Error('fixtures: the write did not run at once');
  if ('error' in outcome) throw placed(outcome.error, text);
  const { replaceWith, builtIn } = outcome.build;
  if (replaceWith) store.replace(replaceWith, builtIn ?? undefined).catch(report);
  return outcome.build.result;
}
