import { unixSeconds } from '../../lib/clock.js';
import type { Services } from '../../platform/context.js';
import type { ConnectionRecord, ConsumerRecord, IssueRecord } from '../../store/world.js';
import { enqueue, pendingFrom } from './outbox.js';
import { subscribersOf } from './webhooks.domain.js';

/**
 * Events of the platform (a connection created, a flow executed, an issue opened...). Publishing
 * one writes a delivery into the outbox (world.webhook_deliveries) for every active webhook
 * instance subscribed to it, in the same change of the world as what caused it: the caller commits.
 * The delivery worker (delivery.ts beside this file, a task of the ticker) sends them: after the
 * commit, kick it with `void services.ticker.run()` so that the first attempt starts at once; it
 * also runs on every move of the clock and every second on the machine's time. Instances created by
 * a key restricted to consumers get only the events about those consumers (see subscribersOf).
 */
export interface SandboxEvent {
  accountid: string;
  envid: string;
  /** A webhook type of fixtures/webhook-types.json, e.g. 'account.connection.created'. */
  event: string;
  consumerid: string | null;
  /** The integration the event concerns, if any: instances bound to an integration get only its events. */
  integrationid?: number | null;
  /** The event's own fields, added to accountid, event, consumerid and created. */
  fields?: Record<string, unknown>;
}

export type EventServices = Pick<Services, 'store' | 'clock' | 'ids' | 'ticker'>;

const ENVELOPE_FIELDS = new Set(['accountid', 'event', 'consumerid', 'created']);

/**
 * The JSON text delivered for an event: accountid, event, consumerid and created (Unix seconds),
 * then the event's own fields (which cannot replace the first four).
 */
export function eventBody(event: SandboxEvent, now: Date): string {
  const fields = Object.entries(event.fields ?? {}).filter(([name]) => !ENVELOPE_FIELDS.has(name));
  return JSON.stringify({
    accountid: event.accountid,
    event: event.event,
    consumerid: event.consumerid,
    created: unixSeconds(now),
    ...Object.fromEntries(fields),
  });
}

/**
 * Queues the event for its subscribers (given up at once for an account whose deliveries waiting
 * fill the outbox: see outbox.ts); returns the number of deliveries queued.
 */
export function publishEvent(services: EventServices, event: SandboxEvent): number {
  const world = services.store.world;
  const now = services.clock.now();
  const subscribers = subscribersOf(
    world,
    event.accountid,
    event.envid,
    event.event,
    event.integrationid,
    event.consumerid,
  );
  for (const webhook of subscribers) {
    const body = eventBody(event, now);
    const deliveryid = services.ids.next('webhook-delivery');
    enqueue(world, {
      deliveryid,
      webhookid: webhook.webhookid,
      accountid: event.accountid,
      envid: event.envid,
      event_consumerid: event.consumerid,
      event: event.event,
      url: webhook.url,
      integrationid: event.integrationid ?? null,
      body,
      ...pendingFrom(now),
      redelivery_of: null,
    });
  }
  return subscribers.length;
}

export type ConnectionEventKind = 'created' | 'updated' | 'deleted';

/**
 * account.connection.created / updated / deleted: published when a connection is made (POST
 * connections with an integrationid, or a link page that creates one), changed (PATCH, or a link
 * page that completes an existing one) or deleted. Fields: connectionid, integrationid, name, status.
 */
export function connectionEvent(
  kind: ConnectionEventKind,
  consumer: Pick<ConsumerRecord, 'consumerid' | 'accountid' | 'envid'>,
  connection: Pick<ConnectionRecord, 'connectionid' | 'integrationid' | 'name' | 'status'>,
): SandboxEvent {
  return {
    accountid: consumer.accountid,
    envid: consumer.envid,
    event: `account.connection.${kind}`,
    consumerid: consumer.consumerid,
    integrationid: connection.integrationid,
    fields: {
      connectionid: connection.connectionid,
      integrationid: connection.integrationid,
      name: connection.name,
      status: connection.status,
    },
  };
}

/**
 * account.issue.created / updated: published when an issue opens (a failed run, a connection's
 * credentials expiring) and when it changes (an occurrence added, closed). Fields: issue_id,
 * error_code, level, status.
 */
export function issueEvent(kind: 'created' | 'updated', issue: IssueRecord): SandboxEvent {
  return {
    accountid: issue.accountid,
    envid: issue.envid,
    event: `account.issue.${kind}`,
    consumerid: issue.consumerid,
    integrationid: issue.integration_id,
    fields: {
      issue_id: issue.issue_id,
      error_code: issue.error_code,
      level: issue.level,
      status: issue.status,
    },
  };
}
