import type { Services } from '../context.js';
import { subscribersOf } from '../resources/webhooks/webhooks.domain.js';
import { unixSeconds } from './clock.js';

/**
 * Events of the platform (a connection created, a flow executed, an issue opened...). Publishing
 * one writes a delivery into the outbox (world.webhook_deliveries) for every active webhook
 * instance subscribed to it, in the same change of the world as what caused it: the caller commits.
 * The delivery worker (registered on the ticker) sends them.
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

/** Queues the event for its subscribers; returns the number of deliveries queued. */
export function publishEvent(services: EventServices, event: SandboxEvent): number {
  const world = services.store.world;
  const now = services.clock.now();
  const subscribers = subscribersOf(world, event.accountid, event.envid, event.event, event.integrationid);
  for (const webhook of subscribers) {
    const body = JSON.stringify({
      accountid: event.accountid,
      event: event.event,
      consumerid: event.consumerid,
      created: unixSeconds(now),
      ...event.fields,
    });
    const deliveryid = services.ids.next('webhook-delivery');
    world.webhook_deliveries[deliveryid] = {
      deliveryid,
      webhookid: webhook.webhookid,
      accountid: event.accountid,
      envid: event.envid,
      consumerid: event.consumerid,
      event: event.event,
      url: webhook.url,
      integrationid: event.integrationid ?? null,
      body,
      created_on: now.toISOString(),
      attempts: 0,
      next_attempt_at: now.toISOString(),
      state: 'pending',
      last_httpstatus: null,
    };
  }
  return subscribers.length;
}
