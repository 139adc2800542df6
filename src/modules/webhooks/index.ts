import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv, Services } from '../../platform/context.js';
import type { TickTask } from '../../platform/ticker.js';
import { type DeliveryOptions, DeliveryWorker } from './delivery.js';
import * as handlers from './webhooks.handlers.js';
import * as routes from './webhooks.routes.js';

/** The webhook routes. */
export function registerWebhooks(app: OpenAPIHono<AppEnv>): void {
  // /webhooks/list is registered before /webhooks/{webhookid} so that "list" is never taken for an id.
  app.openapi(routes.listWebhookTypes, handlers.listWebhookTypesHandler);
  app.openapi(routes.createWebhook, handlers.createWebhookHandler);
  app.openapi(routes.listWebhooks, handlers.listWebhooksHandler);
  app.openapi(routes.getWebhook, handlers.getWebhookHandler);
  app.openapi(routes.updateWebhook, handlers.updateWebhookHandler);
  app.openapi(routes.deleteWebhook, handlers.deleteWebhookHandler);
  app.openapi(routes.listWebhookLogs, handlers.listWebhookLogsHandler);
}

/** Background task: the worker that delivers the events of the outbox to the instances (delivery.ts). */
export function webhookDeliveryTask(services: Services, options: DeliveryOptions = {}): TickTask {
  const worker = new DeliveryWorker(services, options);
  return () => worker.tick();
}

export { attemptErrorKind, deliveryHeaders, deliveryWorkKey } from './delivery.js';
// The control endpoints of deliveries (/__sandbox/webhook-deliveries) and what the console reuses.
export { queueRedelivery, registerDeliveryControl, requireDelivery, toDelivery } from './delivery-control.js';
export type { EventServices } from './events.js';
// What other modules use of this one.
export { connectionEvent, issueEvent, publishEvent } from './events.js';
// The faults that make deliveries misbehave reach the worker through this service (misbehaviour.ts).
export type {
  DeliveryFacts,
  Misbehaviour,
  MisbehaviourOrder,
  WebhookFaultEffect,
  WebhookMisbehaviour,
} from './misbehaviour.js';
export {
  holdsDelivery,
  MAX_HELD_DELIVERIES,
  signingSecretAt,
  WEBHOOK_FAULT_EFFECTS,
} from './misbehaviour.js';
export {
  MAX_FINISHED_DELIVERIES,
  MAX_PENDING_DELIVERIES_PER_ACCOUNT,
  OUTBOX_FULL,
} from './outbox.js';
export {
  createWebhook,
  MAX_WEBHOOKS_PER_ACCOUNT,
  subscribersOf,
  toWebhookInstance,
  webhookTypes,
} from './webhooks.domain.js';
export { WebhookInstancePostItem } from './webhooks.schemas.js';
