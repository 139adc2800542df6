import type { Context, Next } from 'hono';
import { isUuid } from '../lib/ids.js';
import { connectionsOfConsumer } from '../store/indexes.js';
import { type ConnectionRecord, type TransactionRecord, transactionKey, type World } from '../store/world.js';
import { canSee } from './access.js';
import type { ApiName } from './catalogue.js';
import type { AppEnv } from './context.js';
import type { AnyVerticalModule } from './vertical-module.js';

/**
 * Client request ids (header x-chift-client-requestid, sent by the official SDK on writes): the first
 * answer of a write is recorded against the connection that served it, a repeated request with the
 * same id gets that first answer again without doing anything, and GET .../transactions finds it.
 */
export const CLIENT_REQUEST_ID_HEADER = 'x-chift-client-requestid';
export const CONNECTION_ID_HEADER = 'x-chift-connectionid';
/** The header the official clients send to pick a consumer's connection by its integration. */
export const INTEGRATION_ID_HEADER = 'x-chift-integrationid';

/**
 * The One API of an area of the consumer's routes (its path segment and the first of its MCP
 * scopes): a vertical's key names its own, `custom` the custom connectors'.
 */
export function oneApiOfArea(verticals: readonly AnyVerticalModule[], area: string): ApiName | undefined {
  if (area === 'custom') return 'Custom';
  return verticals.find((module) => module.key === area)?.api;
}

/**
 * The active connection of a consumer for a One API: the one named by the X-Chift-ConnectionId
 * header when it is one of them, otherwise the most recently created.
 */
export function activeConnectionOf(
  world: World,
  consumerid: string,
  api: ApiName,
  apiOf: (integrationid: number) => ApiName | undefined,
  preferred: ConnectionPreference = {},
): ConnectionRecord | undefined {
  let found: ConnectionRecord | undefined;
  let ofIntegration: ConnectionRecord | undefined;
  for (const connection of connectionsOfConsumer(world, consumerid)) {
    if (connection.status !== 'active') continue;
    if (apiOf(connection.integrationid) !== api) continue;
    if (preferred.connectionid && connection.connectionid === preferred.connectionid) return connection;
    if (!found || connection.created_on >= found.created_on) found = connection;
    if (
      connection.integrationid === preferred.integrationid &&
      (!ofIntegration || connection.created_on >= ofIntegration.created_on)
    ) {
      ofIntegration = connection;
    }
  }
  return ofIntegration ?? found;
}

/** Which of a consumer's connections a request asks for, by its headers (see activeConnectionOf). */
export interface ConnectionPreference {
  connectionid?: string | undefined;
  integrationid?: number | undefined;
}

export function connectionPreference(c: Context<AppEnv>): ConnectionPreference {
  const integration = Number(c.req.header(INTEGRATION_ID_HEADER));
  return {
    connectionid: c.req.header(CONNECTION_ID_HEADER)?.toLowerCase(),
    integrationid: Number.isInteger(integration) && integration > 0 ? integration : undefined,
  };
}

/**
 * The connection a consumer-scoped write concerns: the one of its path, or the consumer's active
 * connection of the path's vertical. null when the path names a connection that is not the
 * consumer's: nothing is recorded against someone else's connection.
 */
function connectionOfRequest(
  c: Context<AppEnv>,
  consumerid: string,
  area: string | null,
): string | undefined | null {
  const world = c.get('store').world;
  const fromPath = c.req.param('connectionid') ?? c.req.param('connection_id');
  if (fromPath) {
    const id = fromPath.toLowerCase();
    return isUuid(id) && world.connections[id]?.consumerid === consumerid ? id : null;
  }
  const api = area === null ? undefined : oneApiOfArea(c.get('verticals'), area);
  if (!api) return undefined;
  const catalogue = c.get('catalogue');
  return activeConnectionOf(world, consumerid, api, (id) => catalogue.get(id)?.api, connectionPreference(c))
    ?.connectionid;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Wraps a consumer-scoped write that carries a client request id; runs after authentication. */
export async function withClientRequestId(
  c: Context<AppEnv>,
  next: Next,
  area: string | null,
): Promise<Response | undefined> {
  const requestId = c.req.header(CLIENT_REQUEST_ID_HEADER);
  const consumerParam = c.req.param('consumer_id');
  if (!requestId || !consumerParam || !WRITE_METHODS.has(c.req.method) || !isUuid(consumerParam)) {
    await next();
    return;
  }
  const world = c.get('store').world;
  const consumer = world.consumers[consumerParam.toLowerCase()];
  if (!consumer || !canSee(c.get('principal'), consumer)) {
    await next();
    return;
  }
  const before = connectionOfRequest(c, consumer.consumerid, area);
  if (before === null) {
    await next();
    return;
  }
  const earlier = before
    ? world.transactions[transactionKey(before, requestId)]
    : earlierCreation(world, consumer.consumerid, requestId, c.req.path);
  if (earlier && earlier.method === c.req.method && earlier.route === c.req.path) {
    // A bodiless answer (204) is replayed bodiless: a Response with status 204 cannot carry JSON.
    if (earlier.status_code === 204) return c.body(null, 204);
    return c.json(earlier.response_body as object, earlier.status_code as 200);
  }
  await next();
  if (earlier || c.res.status >= 500) return;
  const connectionid = before ?? created(c);
  if (!connectionid || world.connections[connectionid]?.consumerid !== consumer.consumerid) return;
  let responseBody: unknown = null;
  const text = await c.res.clone().text();
  if (text.length) {
    try {
      responseBody = JSON.parse(text);
    } catch {
      responseBody = text;
    }
  }
  const key = transactionKey(connectionid, requestId);
  const record: TransactionRecord = {
    connectionid,
    client_request_id: requestId,
    created_on: c.get('clock').now().toISOString(),
    method: c.req.method,
    route: c.req.path,
    status_code: c.res.status,
    created_entity_id: c.get('createdEntityId') ?? null,
    response_body: responseBody,
  };
  // The service records the answer whatever it was. A refused write is rolled back as a whole, so
  // its record is a write of its own, right after the rollback (not awaited: it runs once this write
  // ends); a done one is recorded with it, in the same change.
  if (c.res.status < 400) c.get('store').world.transactions[key] = record;
  else
    c.get('store')
      .transactApart((apart) => {
        apart.world.transactions[key] = record;
      })
      .catch((error: unknown) => {
        console.error('[unified-api-sandbox] a refused write could not be recorded:', error);
      });
}

/**
 * A write that is not tied to a connection before it runs (POST connections) was recorded against the
 * connection it created: find it among the consumer's connections.
 */
function earlierCreation(world: World, consumerid: string, requestId: string, route: string) {
  for (const transaction of Object.values(world.transactions)) {
    if (transaction.client_request_id !== requestId || transaction.route !== route) continue;
    if (world.connections[transaction.connectionid]?.consumerid === consumerid) return transaction;
  }
  return undefined;
}

/** POST connections records against the connection it created. */
function created(c: Context<AppEnv>): string | undefined {
  const id = c.get('createdEntityId');
  return id && c.req.path.endsWith('/connections') ? id : undefined;
}
