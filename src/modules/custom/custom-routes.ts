import { createRoute, type OpenAPIHono, type RouteConfig, type RouteHandler, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { clientRoute } from '../../lib/client-routes.js';
import { ApiError, messages, serviceError } from '../../lib/errors.js';
import { DEFAULT_PAGE_SIZE, pageQuery, paginate, servicePage } from '../../lib/pagination.js';
import { requireConsumer } from '../../platform/access.js';
import type { ApiName } from '../../platform/catalogue.js';
import type { AppEnv } from '../../platform/context.js';
import {
  ConsumerIdParam,
  errorResponses,
  jsonBody,
  jsonContent,
  type Scopes,
  secured,
} from '../../platform/openapi.js';
import { connectionPreference } from '../../platform/transactions.js';
import type { VerticalScope } from '../../platform/vertical-connection.js';
import { connectionsOfConsumer } from '../../store/indexes.js';
import {
  createCustomRecord,
  customSegments,
  deleteCustomRecord,
  MAX_CUSTOM_BYTES_PER_CONNECTION,
  MAX_CUSTOM_PATHS_PER_CONNECTION,
  MAX_CUSTOM_RECORDS_PER_CONNECTION,
  MAX_CUSTOM_RECORDS_PER_PATH,
  readCustom,
  updateCustomRecord,
} from './custom-records.js';

/**
 * The connector-specific custom routes the official clients call (`.../custom/...` under the
 * consumer, and under a vertical): pass-throughs to routes a connector adds to the unified ones.
 * The service documents none of them and hands each to the connector's own API, which the sandbox
 * does not simulate. What it does:
 *
 * - it resolves the consumer and its active connection as any operation of the vertical does (404,
 *   401, 400 ERROR_NO_ACTIVE_CONNECTION), without a coverage check: custom routes are the
 *   connector's, not the vertical's;
 * - it serves every custom path as a collection of records of that connection (custom-records.ts):
 *   a GET lists them by pages (or reads `{path}/{id}`), a POST adds one, a PATCH or DELETE of
 *   `{path}/{id}` changes or removes it; an unknown record is a 404.
 *
 * The records are the connection's own, apart from the records of its vertical: a connector's own
 * routes answer in the connector's shapes, not in the unified ones.
 */

export const CustomPayload = z.unknown().openapi('CustomPayload', {
  description: "Any JSON value: what the connector's custom route takes or answers",
});

export const CustomRecord = z.record(z.string(), z.unknown()).openapi('CustomRecord', {
  description: 'A record of a custom path of the connection: the body it was created with, and its id',
});

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
      description:
        "Accounting: taken and not used: the records of a custom path are the connection's, whatever the folder",
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

/** The answer of a custom route, from the records of the connection's custom paths. */
function answer(c: Context<AppEnv>, scope: VerticalScope): Response {
  const segments = customSegments(c.req.param('custom_path') ?? '');
  if (segments.length === 0) throw new ApiError(404, messages.notFound, 'The route names no custom path');
  const world = c.get('store').world;
  const { connection } = scope;
  // The body, when the route takes one: checked (any JSON value) by the route's schema already.
  const body = () => (c.req as unknown as { valid(target: 'json'): unknown }).valid('json');
  switch (c.req.method) {
    case 'GET': {
      const read = readCustom(world, connection, segments);
      if (read.kind === 'record') return c.json(read.record, 200);
      // Checked by the route's query schema already.
      const page = Number(c.req.query('page') ?? 1);
      const size = Number(c.req.query('size') ?? DEFAULT_PAGE_SIZE);
      return c.json(paginate(read.records, page, size), 200);
    }
    case 'POST': {
      const record = createCustomRecord(world, connection, segments, body(), () =>
        c.get('ids').next('custom-record'),
      );
      c.set('createdEntityId', String(record.id));
      return c.json(record, 200);
    }
    case 'PATCH':
      return c.json(updateCustomRecord(world, connection, segments, body()), 200);
    default:
      return c.json(deleteCustomRecord(world, connection, segments), 200);
  }
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
  /** Resolves the consumer and its connection (throws the refusals). */
  open: (c: Context<AppEnv>) => VerticalScope;
}

const BOUNDS = `The sandbox keeps at most ${MAX_CUSTOM_RECORDS_PER_PATH} records per custom path, ${MAX_CUSTOM_RECORDS_PER_CONNECTION} records and ${MAX_CUSTOM_PATHS_PER_CONNECTION} paths per connection, weighing ${MAX_CUSTOM_BYTES_PER_CONNECTION} bytes together (their JSON and paths): past them a write is refused with 400.`;

/**
 * What each method does, for the document: the service hands the route to the connector's own API;
 * the sandbox keeps the records of each custom path of the connection instead.
 */
const DESCRIPTION: Record<Method, string> = {
  get: 'A pass-through to a route the connector adds. The sandbox serves every custom path as a collection of records of the connection: a GET of a path lists its records by pages (a path that holds nothing is an empty collection); a GET of {path}/{id}, where {path} is a collection, answers one record, or 404 when the collection holds none with that id.',
  post: `A pass-through to a route the connector adds. The sandbox adds the body as a record of the path's collection and answers it: under the body's own id (a string or a whole number; one the collection already holds is refused with 400), else under an id it gives. A body that is no object is kept as the record's value. ${BOUNDS}`,
  patch: `A pass-through to a route the connector adds. The sandbox merges the body into the record {path}/{id} (its id stays) and answers it; 404 when the collection holds no record with that id. ${BOUNDS}`,
  delete:
    'A pass-through to a route the connector adds. The sandbox removes the record {path}/{id} and answers it; 404 when the collection holds no record with that id.',
};

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
    ...clientRoute(DESCRIPTION[method]),
    ...secured('consumer', read ? spec.scopes.read : spec.scopes.write, spec.scopes.area),
    request: read
      ? { params: spec.params, query: CustomQuery }
      : method === 'delete'
        ? { params: spec.params }
        : { params: spec.params, body: jsonBody(CustomPayload, "What the connector's route takes", false) },
    responses: {
      200: read
        ? jsonContent(z.union([ServicePage_CustomRecord_, CustomRecord]), 'A page of records, or one record')
        : jsonContent(CustomPayload, 'The record created, changed or removed'),
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
    const handler = (c: Context<AppEnv>) => answer(c, spec.open(c));
    const { middleware: _middleware, ...documented } = route;
    app.openAPIRegistry.registerPath(documented as RouteConfig);
    app.openapi(
      { ...route, hide: true, path: route.path.replace('{custom_path}', '{custom_path{.+}}') },
      handler as unknown as RouteHandler<typeof route, AppEnv>,
    );
  }
}
