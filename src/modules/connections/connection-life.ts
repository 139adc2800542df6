import { uuidFrom } from '../../lib/ids.js';
import { own } from '../../lib/own.js';
import type { Services } from '../../platform/context.js';
import type { ConnectionRecord, ConsumerRecord, IssueRecord, World } from '../../store/world.js';
import { connectionEvent, issueEvent, publishEvent } from '../webhooks/index.js';

/**
 * What happens to a connection over time, besides what clients do: its credentials expire (it turns
 * inactive, an issue opens, account.connection.updated fires; a new link repairs it), its software
 * cannot be reached for a while, or its local agent stops answering (its operations answer the
 * service's 502 until it recovers). The timeline applies these at their instant, and the seeded life
 * of the world (connectionLifeTask) draws a few on the consumers that are not the well-known ones.
 */

export const LIFE_EVENTS = ['credentials_expired', 'unreachable', 'agent_down', 'recovered'] as const;
export type LifeEvent = (typeof LIFE_EVENTS)[number];

export type LifeServices = Pick<Services, 'store' | 'clock' | 'ids' | 'ticker' | 'catalogue'>;

/** The error code of the issue an expiry opens, as a flow that met the same refusal would report it. */
export const EXPIRED_CODE = 'ERROR_AUTHENTICATION_FAILED';

/** Why an event cannot happen to a connection (a local agent's outage on a connector without one). */
export function lifeRefusal(
  services: Pick<Services, 'catalogue'>,
  connection: ConnectionRecord,
  event: LifeEvent,
): string | null {
  if (event === 'agent_down' && !services.catalogue.get(connection.integrationid)?.local_agent) {
    return `The integration ${connection.integrationid} does not run through a local agent`;
  }
  return null;
}

/**
 * Applies one event to a connection at `at` (the sandbox's time when the clock reaches it):
 * `until` ends an outage (null: until `recovered`). Inside a write; events go out with it.
 */
export function applyLifeEvent(
  services: LifeServices,
  consumer: ConsumerRecord,
  connection: ConnectionRecord,
  event: LifeEvent,
  at: string,
  until: string | null = null,
): void {
  const world = services.store.world;
  switch (event) {
    case 'credentials_expired': {
      if (connection.status !== 'active') return;
      connection.status = 'inactive';
      connection.updated_on = at;
      openExpiryIssue(services, world, consumer, connection, at);
      break;
    }
    case 'unreachable':
    case 'agent_down':
      connection.outage = { kind: event, since: at, until };
      connection.updated_on = at;
      break;
    case 'recovered':
      if (!connection.outage) return;
      connection.outage = null;
      connection.updated_on = at;
      break;
  }
  publishEvent(services, connectionEvent('updated', consumer, connection));
}

/** Whether the local agent of a connection answers at `now`. */
export function agentAnswers(connection: ConnectionRecord, now: string): boolean {
  const outage = connection.outage;
  return !(
    outage?.kind === 'agent_down' &&
    outage.since <= now &&
    (outage.until === null || now < outage.until)
  );
}

function openExpiryIssue(
  services: LifeServices,
  world: World,
  consumer: ConsumerRecord,
  connection: ConnectionRecord,
  at: string,
): void {
  const integration = services.catalogue.get(connection.integrationid);
  const issue: IssueRecord = {
    issue_id: services.ids.next('issue'),
    accountid: consumer.accountid,
    envid: consumer.envid,
    consumerid: consumer.consumerid,
    connection_id: connection.connectionid,
    integration_id: connection.integrationid,
    integration_name: integration?.name ?? connection.name,
    syncid: null,
    flowid: null,
    datalayer_of: null,
    error_code: EXPIRED_CODE,
    error_status: '401',
    error_title: 'Authentication failed',
    error_description: `The credentials of the connection to ${integration?.name ?? connection.name} expired; the end user must reconnect.`,
    level: 'error',
    status: 'open',
    created_on: at,
    updated_on: at,
    last_seen: at,
    occurrences: 1,
    events: [
      {
        id: uuidFrom('issue-event', connection.connectionid, at),
        execution_id: '',
        created_on: at,
        context: { connectionid: connection.connectionid, cause: 'credentials_expired' },
        message: 'The software refused the credentials of the connection',
      },
    ],
  };
  world.issues[issue.issue_id] = issue;
  publishIssue(services, issue, 'created');
}

/**
 * A connection made active again by a new link (or new credentials): the issues its expiry opened
 * close, with account.issue.updated, and an outage ends.
 */
export function repairedConnection(services: LifeServices, connection: ConnectionRecord): void {
  const world = services.store.world;
  const now = services.clock.now().toISOString();
  if (connection.outage) connection.outage = null;
  for (const issue of Object.values(world.issues)) {
    if (
      issue.status !== 'open' ||
      issue.connection_id !== connection.connectionid ||
      issue.error_code !== EXPIRED_CODE ||
      issue.flowid !== null ||
      issue.datalayer_of !== null
    )
      continue;
    issue.status = 'closed';
    issue.updated_on = now;
    publishIssue(services, issue, 'updated');
  }
}

function publishIssue(services: LifeServices, issue: IssueRecord, event: 'created' | 'updated'): void {
  publishEvent(services, issueEvent(event, issue));
}

/** The consumer of a connection, if it is still there. */
export const consumerOf = (world: World, connection: ConnectionRecord): ConsumerRecord | undefined =>
  own(world.consumers, connection.consumerid);
