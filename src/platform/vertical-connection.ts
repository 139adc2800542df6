import type { Context } from 'hono';
import { ApiError, errors, messages, serviceError } from '../lib/errors.js';
import type { ConnectionRecord, ConsumerRecord } from '../store/world.js';
import { requireConsumer } from './access.js';
import type { ApiName, Integration } from './catalogue.js';
import type { AppEnv } from './context.js';
import { activeConnectionOf, connectionPreference } from './transactions.js';

/**
 * What every operation of a vertical (/consumers/{consumer_id}/<vertical>/...) starts from: the
 * consumer (404 / 401 as every consumer route), its active connection of that One API (the
 * X-Chift-ConnectionId header picks one among several; none: 400 with the service's generic
 * message), and the integration behind it, which must implement the operation (its catalogue
 * coverage says SUPPORTED; otherwise 400). While the software cannot be reached (an outage of the
 * connection, see connection-life.ts), every operation answers the service's 502.
 */
export interface VerticalScope {
  consumer: ConsumerRecord;
  connection: ConnectionRecord;
  integration: Integration;
}

/** The generic 400 of a vertical operation, with a detail saying what was wrong. */
export const verticalFailure = (detail: string) => new ApiError(400, messages.accountingFailure, detail);

/**
 * The consumer and its active connection of a One API, with the integration behind it: every check
 * of a vertical operation but the coverage one (the custom pass-throughs need no more).
 */
export function requireActiveConnection(c: Context<AppEnv>, api: ApiName): VerticalScope {
  const world = c.get('store').world;
  const catalogue = c.get('catalogue');
  const consumer = requireConsumer(world, c.get('principal'), c.req.param('consumer_id') ?? '');
  const connection = activeConnectionOf(
    world,
    consumer.consumerid,
    api,
    (id) => catalogue.get(id)?.api,
    connectionPreference(c),
  );
  if (!connection) {
    throw serviceError('noActiveConnection', `The consumer has no active connection to a ${api} integration`);
  }
  const integration = catalogue.get(connection.integrationid);
  if (!integration) throw verticalFailure('The integration of the connection is unknown');
  const outage = connection.outage;
  if (outage) {
    const now = c.get('clock').now().toISOString();
    if (outage.since <= now && (outage.until === null || now < outage.until)) {
      throw errors.connectorUnreachable(
        integration.name,
        outage.kind === 'agent_down'
          ? `The local agent of ${integration.name} does not answer`
          : `${integration.name} cannot be reached`,
      );
    }
  }
  return { consumer, connection, integration };
}

/** requireActiveConnection, and the integration must implement the operation (coverage SUPPORTED). */
export function requireVerticalConnection(
  c: Context<AppEnv>,
  api: ApiName,
  operationId: string,
): VerticalScope {
  const scope = requireActiveConnection(c, api);
  const { integration } = scope;
  const coverage = integration.coverage.find((entry) => entry.operation === operationId)?.status;
  if (coverage !== 'SUPPORTED') {
    throw verticalFailure(
      `${integration.name} does not support ${operationId} (${coverage ?? 'NOT_SUPPORTED'})`,
    );
  }
  return scope;
}
