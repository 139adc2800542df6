import { createRoute, type OpenAPIHono, type RouteConfig, type RouteHandler, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../context.js';
import { clientRoute } from '../lib/client-routes.js';
import { serviceError } from '../lib/errors.js';
import { errorResponses, jsonBody, jsonContent, type Scopes, secured } from '../lib/openapi.js';
import { DEFAULT_PAGE_SIZE, pageQuery, paginate, servicePage } from '../lib/pagination.js';
import { connectionPreference } from '../lib/transactions.js';
import type { ApiName } from '../seed/catalogue.js';
import { connectionsOfConsumer } from '../store/indexes.js';
import { cloneRecord } from '../store/unit-of-work.js';
import { requireConsumer } from './consumers/consumers.domain.js';
import { ConsumerIdParam } from './consumers/consumers.schemas.js';
import { type VerticalScope, verticalFailure } from './consumers/vertical-connection.js';

/**
 * The connector-specific custom routes the official clients call (`.../custom/...` under the
 * consumer, and under a vertical): pass-throughs to routes a connector adds to the unified ones.
 * The service documents none of them, and the sandbox simulates no connector's own API. What it does:
 *
 * - it resolves the consumer and its active connection as any operation of the vertical does (404,
 *   401, 400 ERROR_NO_ACTIVE_CONNECTION), without a coverage check: custom routes are the
 *   connector's, not the vertical's;
 * - a GET of `{collection}` or `{collection}/{id}` answers from the records the sandbox keeps for
 *   the connection, when the vertical keeps any (a page of them, or one), in their stored form;
 * - anything else (another path, a write) is refused with the service's generic 400, whose detail
 *   says the connector has no such custom route.
 */

/** Records the sandbox keeps for a connection, by collection and id. */
export type RecordCollections = Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>>;

/** The named collections of a connection's data, as its record maps. */
export function collectionsOf<T extends object>(
  data: T,
  names: readonly (keyof T & string)[],
): RecordCollections {
  const out: Record<string, Readonly<Record<string, unknown>>> = {};
  for (const name of names) {
    const records = data[name] as Readonly<Record<string, unknown>> | undefined;
    if (records) out[name] = records;
  }
  return out;
}

/** What a custom route opens once the consumer and its connection are resolved. */
export interface CustomTarget {
  scope: VerticalScope;
  /** null: the sandbox keeps no records for the connection (every custom route is refused). */
  collections: RecordCollections | null;
}

export const CustomPayload = z.unknown().openapi('CustomPayload', {
  description: "Any JSON value: what the connector's custom route takes or answers",
});

export const CustomRecord = z
  .record(z.string(), z.unknown())
  .openapi('CustomRecord', { description: 'A record the sandbox keeps for the connection, as stored' });

export const ServicePage_CustomRecord_ = servicePage(CustomRecord, 'CustomRecord');

const customPathParam = z.string().openapi({
  param: { name: 'custom_path', in: 'path' },
  description:
    'The path of the custom route below the prefix: one or more segments, such as a resource and an id',
});

export const CustomPathParams = ConsumerIdParam.extend({ custom_path: customPathParam });

export const ConnectorCustomPathParams = ConsumerIdParam.extend({
  connector: z.string().openapi({
    param: { name: 'connector', in: 'path' },
    description: 'The connector: its integration id, or its name in lower case with dashes (sandbox-custom)',
  }),
  custom_path: customPathParam,
});

const CustomQuery = pageQuery({
  folder_id: z
    .string()
    .optional()
    .openapi({
      param: { name: 'folder_id', in: 'query' },
      description: 'Accounting: the folder, required when the connection holds several',
    }),
});

/** A connector's name in a path: lower case, each run of other characters one dash (Sandbox Custom: sandbox-custom). */
export const connectorSlug = (name: string) =>
  name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join('-');

/** The consumer's active connection of a One API whose connector the path names (by slug or integration id). */
export function namedConnection(c: Context<AppEnv>, api: ApiName, connector: string): VerticalScope {
  const world = c.get('store').world;
  const catalogue = c.get('catalogue');
  const consumer = requireConsumer(world, c.get('principal'), c.req.param('consumer_id') ?? '');
  const wanted = connector.toLowerCase();
  const matches = connectionsOfConsumer(world, consumer.consumerid).filter((connection) => {
    const integration = catalogue.get(connection.integrationid);
    return (
      connection.status === 'active' &&
      integration?.api === api &&
      (String(integration.integrationid) === wanted || connectorSlug(integration.name) === wanted)
    );
  });
  const connection =
    matches.find((m) => m.connectionid === connectionPreference(c).connectionid) ??
    matches.sort((a, b) => b.created_on.localeCompare(a.created_on))[0];
  const integration = connection ? catalogue.get(connection.integrationid) : undefined;
  if (!connection || !integration) {
    throw serviceError(
      'noActiveConnection',
      `The consumer has no active connection to a ${api} connector named '${connector}'`,
    );
  }
  return { consumer, connection, integration };
}

/** The answer of a custom route: a GET of records the sandbox keeps, or the refusal. */
function answer(c: Context<AppEnv>, target: CustomTarget): Response {
  const path = c.req.param('custom_path') ?? '';
  // The route below the consumer (/consumers/{consumer_id}/...), as the refusal names it.
  const route = c.req.path.split('/').slice(3).join('/');
  const segments = path.split('/').filter(Boolean);
  const owner = target.scope.integration.name;
  const [name, id] = segments;
  const records =
    c.req.method === 'GET' &&
    target.collections &&
    name !== undefined &&
    Object.hasOwn(target.collections, name)
      ? target.collections[name]
      : undefined;
  if (records && segments.length === 1) {
    // Checked by the route's query schema already.
    const page = Number(c.req.query('page') ?? 1);
    const size = Number(c.req.query('size') ?? DEFAULT_PAGE_SIZE);
    const slice = paginate(Object.values(records), page, size);
    return c.json({ ...slice, items: slice.items.map(cloneRecord) }, 200);
  }
  if (records && id !== undefined && segments.length === 2) {
    if (!Object.hasOwn(records, id)) throw verticalFailure(`${owner} has no record '${id}' in ${name}`);
    return c.json(cloneRecord(records[id]), 200);
  }
  throw verticalFailure(
    `${owner} has no custom route '${c.req.method} ${route}' in the sandbox: it simulates no connector's own API` +
      (target.collections
        ? ` (GET reads the collections ${Object.keys(target.collections).join(', ')})`
        : ''),
  );
}

type Method = 'get' | 'post' | 'patch' | 'delete';

export interface CustomRoutesSpec {
  /** The path up to the custom path: `/consumers/{consumer_id}/accounting/custom`. */
  prefix: string;
  /** Prefix of the operationIds: `accounting_custom` gives accounting_custom_get... */
  operationId: string;
  tag: string;
  methods: readonly Method[];
  /** MCP scopes of reads and of writes, and the area of client request ids. */
  scopes: { read: Scopes; write: Scopes; area: string };
  params: typeof CustomPathParams | typeof ConnectorCustomPathParams;
  /** Resolves the consumer and its connection (throws the refusals), and the records kept for it. */
  open: (c: Context<AppEnv>) => CustomTarget | Promise<CustomTarget>;
}

const SUMMARY: Record<Method, string> = {
  get: 'Read through a custom route of the connector',
  post: 'Create through a custom route of the connector',
  patch: 'Update through a custom route of the connector',
  delete: 'Delete through a custom route of the connector',
};

/**
 * The route of a spec's method, made once per process: its schemas are constants of the code (the
 * operationId names the spec), and making them again for every app cost a third of a millisecond
 * of each createApp.
 */
const customRoutes = new Map<string, ReturnType<typeof makeCustomRoute>>();

function customRoute(spec: CustomRoutesSpec, method: Method) {
  const key = `${spec.operationId}_${method}`;
  let route = customRoutes.get(key);
  if (!route) {
    route = makeCustomRoute(spec, method);
    customRoutes.set(key, route);
  }
  return route;
}

function makeCustomRoute(spec: CustomRoutesSpec, method: Method) {
  const read = method === 'get';
  return createRoute({
    method,
    path: `${spec.prefix}/{custom_path}`,
    operationId: `${spec.operationId}_${method}`,
    tags: [spec.tag],
    summary: SUMMARY[method],
    ...clientRoute(
      read
        ? "A pass-through to a route the connector adds. The sandbox simulates no connector's own API: a GET of {collection} or {collection}/{id} answers the records it keeps for the connection (a page, or one record, as stored); any other path is refused with 400."
        : "A pass-through to a route the connector adds. The sandbox simulates no connector's own API: it refuses the write with 400, saying the connector has no such custom route, once the consumer and its connection are found.",
    ),
    ...secured('consumer', read ? spec.scopes.read : spec.scopes.write, spec.scopes.area),
    request: read
      ? { params: spec.params, query: CustomQuery }
      : method === 'delete'
        ? { params: spec.params }
        : { params: spec.params, body: jsonBody(CustomPayload, "What the connector's route takes", false) },
    responses: {
      200: read
        ? jsonContent(z.union([ServicePage_CustomRecord_, CustomRecord]), 'A page of records, or one record')
        : jsonContent(CustomPayload, "What the connector's route answers"),
      ...errorResponses([400, 401, 404, 422]),
    },
  });
}

/**
 * Registers the custom routes of a prefix. The custom path may hold several segments: each route is
 * served on a path parameter that takes slashes (hidden twin), and documented with a plain one.
 */
export function registerCustomRoutes(app: OpenAPIHono<AppEnv>, spec: CustomRoutesSpec): void {
  for (const method of spec.methods) {
    const route = customRoute(spec, method);
    const handler = async (c: Context<AppEnv>) => answer(c, await spec.open(c));
    const { middleware: _middleware, ...documented } = route;
    app.openAPIRegistry.registerPath(documented as RouteConfig);
    app.openapi(
      { ...route, hide: true, path: route.path.replace('{custom_path}', '{custom_path{.+}}') },
      handler as unknown as RouteHandler<typeof route, AppEnv>,
    );
  }
}
