import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { errors } from '../../lib/errors.js';
import type { IdSource } from '../../lib/ids.js';
import { own } from '../../lib/own.js';
import type { AppEnv } from '../../platform/context.js';
import { admin, errorResponses, jsonContent } from '../../platform/openapi.js';
import type { WebhookDeliveryRecord, World } from '../../store/world.js';
import { deliveryWorkKey } from './delivery.js';
import { WEBHOOK_FAULT_EFFECTS } from './misbehaviour.js';
import { MAX_PENDING_DELIVERIES_PER_ACCOUNT, outboxFull, pendingFrom } from './outbox.js';

/**
 * Control endpoints of the webhook outbox: what was (or will be) sent, with the exact bodies, the
 * attempts and their outcome, and a way to send one again.
 */

const tags = ['Sandbox control'];

const DeliveryState = z.enum(['pending', 'delivered', 'failed']);

const AttemptFault = z
  .object({
    id: z.string().openapi({ description: 'The fault (fault_<n>, see /__sandbox/faults)' }),
    effect: z.enum(WEBHOOK_FAULT_EFFECTS).openapi({ description: 'The effect of the fault' }),
  })
  .openapi('SandboxWebhookAttemptFault');

const DeliveryFault = z
  .object({
    id: z.string().openapi({ description: 'The fault (fault_<n>, see /__sandbox/faults)' }),
    effect: z.enum(WEBHOOK_FAULT_EFFECTS).openapi({ description: 'The effect of the fault' }),
    detail: z.string().openapi({ description: 'What it did to this delivery, in words' }),
    held: z
      .boolean()
      .openapi({ description: 'Whether the fault holds the delivery back now (delay, reorder, loss)' }),
    signingsecret: z.string().nullable().openapi({
      description: "rotate_secret: the instance's new signing secret; null for the other effects",
    }),
  })
  .openapi('SandboxWebhookDeliveryFault');

const DeliveryAttempt = z
  .object({
    webhooklogid: z.string().openapi({ description: 'The webhook log of the attempt' }),
    createdon: z.iso.datetime().openapi({ description: 'When the attempt was made (sandbox time)' }),
    httpstatus: z.number().int().openapi({ description: 'The answer of the receiver; 0 for none' }),
    error: z.string().nullable().openapi({ description: 'Why the attempt failed, or null' }),
    fault: AttemptFault.nullable().openapi({
      description: 'The fault that shaped the delivery of this attempt (a lost attempt, say), or null',
    }),
  })
  .openapi('SandboxWebhookDeliveryAttempt');

const Delivery = z
  .object({
    deliveryid: z.string(),
    webhookid: z.string(),
    accountid: z.string(),
    envid: z.string(),
    event: z.string(),
    consumerid: z.string().nullable().openapi({ description: 'The consumer the event is about' }),
    integrationid: z.number().int().nullable(),
    url: z.string().openapi({ description: 'The url of the last attempt, or of the instance until then' }),
    state: DeliveryState,
    attempts: z.number().int().openapi({ description: 'Attempts made so far' }),
    next_attempt_at: z.iso
      .datetime()
      .nullable()
      .openapi({ description: 'When the next attempt is due; null once delivered or given up' }),
    last_httpstatus: z.number().int().nullable(),
    last_error: z.string().nullable(),
    created_on: z.iso.datetime(),
    redelivery_of: z.string().nullable().openapi({
      description:
        'The delivery this one sends again: a redelivery, or a copy a fault sends (duplicate, stale)',
    }),
    fault: DeliveryFault.nullable().openapi({
      description:
        'The fault that made this delivery misbehave (POST /__sandbox/faults with a webhook match), or null',
    }),
    body: z.string().openapi({ description: 'The exact JSON text sent (what the signature is made of)' }),
    payload: z.record(z.string(), z.unknown()).openapi({ description: 'The same body, parsed' }),
    log: z.array(DeliveryAttempt).openapi({ description: 'The attempts, oldest first' }),
  })
  .openapi('SandboxWebhookDelivery');

const DeliveriesQuery = z.object({
  accountid: z.uuid().optional().openapi({ description: 'Only the deliveries of this account' }),
  webhookid: z.uuid().optional().openapi({ description: 'Only the deliveries to this instance' }),
  event: z.string().optional().openapi({ description: 'Only the deliveries of this event' }),
  state: DeliveryState.optional(),
  fault: z
    .string()
    .max(40)
    .optional()
    .openapi({ description: 'Only the deliveries this fault acted on (fault_<n>)' }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(50)
    .openapi({ description: 'At most this many, newest first (1 to 500, default 50)' }),
});

const DeliveryIdParam = z.object({
  deliveryid: z
    .uuid()
    .openapi({ param: { name: 'deliveryid', in: 'path' }, description: 'Id of the delivery' }),
});

export const listDeliveries = createRoute({
  method: 'get',
  path: '/__sandbox/webhook-deliveries',
  operationId: 'sandbox_list_webhook_deliveries',
  tags,
  summary: 'List recent webhook deliveries (newest first) with their bodies and attempts',
  ...admin,
  request: { query: DeliveriesQuery },
  responses: {
    200: jsonContent(z.array(Delivery), 'The deliveries'),
    ...errorResponses([401, 422]),
  },
});

export const getDelivery = createRoute({
  method: 'get',
  path: '/__sandbox/webhook-deliveries/{deliveryid}',
  operationId: 'sandbox_get_webhook_delivery',
  tags,
  summary: 'Get one webhook delivery',
  ...admin,
  request: { params: DeliveryIdParam },
  responses: {
    200: jsonContent(Delivery, 'The delivery'),
    ...errorResponses([401, 404, 422]),
  },
});

export const redeliver = createRoute({
  method: 'post',
  path: '/__sandbox/webhook-deliveries/{deliveryid}/redeliver',
  operationId: 'sandbox_redeliver_webhook_delivery',
  tags,
  summary:
    'Send a delivery again as a new delivery (same body); answers after its first attempt when it can start at once',
  ...admin,
  request: { params: DeliveryIdParam },
  responses: {
    200: jsonContent(
      Delivery,
      "The new delivery, after its first attempt; still pending with no attempt when the instance's earlier deliveries or the other attempts in flight hold it back",
    ),
    ...errorResponses([401, 404, 413, 422]),
  },
});

type DeliveryOut = z.infer<typeof Delivery>;

function parsePayload(body: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(body);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

export function toDelivery(world: World, record: WebhookDeliveryRecord): DeliveryOut {
  const log = Object.values(world.webhook_logs)
    .filter((l) => l.deliveryid === record.deliveryid)
    .map((l) => ({
      webhooklogid: l.webhooklogid,
      createdon: l.createdon,
      httpstatus: l.httpstatus,
      error: l.error ?? null,
      fault: l.fault ? { id: l.fault.id, effect: l.fault.effect } : null,
    }));
  const fault = record.fault;
  return {
    deliveryid: record.deliveryid,
    webhookid: record.webhookid,
    accountid: record.accountid,
    envid: record.envid,
    event: record.event,
    consumerid: record.event_consumerid,
    integrationid: record.integrationid,
    url: record.url,
    state: record.state,
    attempts: record.attempts,
    next_attempt_at: record.next_attempt_at,
    last_httpstatus: record.last_httpstatus,
    last_error: record.last_error,
    created_on: record.created_on,
    redelivery_of: record.redelivery_of,
    fault: fault
      ? {
          id: fault.id,
          effect: fault.effect,
          detail: fault.detail,
          held: fault.held === true,
          signingsecret: fault.signingsecret ?? null,
        }
      : null,
    body: record.body,
    payload: parsePayload(record.body),
    log,
  };
}

export function requireDelivery(world: World, deliveryid: string): WebhookDeliveryRecord {
  const record = own(world.webhook_deliveries, deliveryid.toLowerCase());
  if (!record) throw errors.webhookDeliveryNotFound();
  return record;
}

/**
 * A new pending delivery with the same body (same bytes, so the same signature) as `original`;
 * refused with 413 when the account has as many deliveries waiting as the outbox keeps.
 */
export function queueRedelivery(
  world: World,
  deps: { ids: IdSource; now: Date },
  original: WebhookDeliveryRecord,
): WebhookDeliveryRecord {
  if (outboxFull(world, original.accountid)) {
    throw errors.listFull(
      'webhook deliveries waiting per account',
      MAX_PENDING_DELIVERIES_PER_ACCOUNT,
      `The account has ${MAX_PENDING_DELIVERIES_PER_ACCOUNT} deliveries waiting, each until it is sent or given up: move the clock past their retries, or delete the webhook instances they go to`,
    );
  }
  const deliveryid = deps.ids.next('webhook-delivery');
  const record: WebhookDeliveryRecord = {
    ...original,
    deliveryid,
    ...pendingFrom(deps.now),
    redelivery_of: original.deliveryid,
  };
  // A redelivery asked for is the tester's own: what a fault did to the original is not carried over.
  delete record.fault;
  world.webhook_deliveries[deliveryid] = record;
  return record;
}

export function registerDeliveryControl(app: OpenAPIHono<AppEnv>): void {
  app.openapi(listDeliveries, (c) => {
    const world = c.get('store').world;
    const query = c.req.valid('query');
    const webhookid = query.webhookid?.toLowerCase();
    const accountid = query.accountid?.toLowerCase();
    const matching = Object.values(world.webhook_deliveries)
      .filter(
        (d) =>
          (accountid === undefined || d.accountid === accountid) &&
          (webhookid === undefined || d.webhookid === webhookid) &&
          (query.event === undefined || d.event === query.event) &&
          (query.state === undefined || d.state === query.state) &&
          (query.fault === undefined || d.fault?.id === query.fault),
      )
      .reverse()
      .slice(0, query.limit);
    return c.json(
      matching.map((d) => toDelivery(world, d)),
      200,
    );
  });

  app.openapi(getDelivery, (c) => {
    const world = c.get('store').world;
    return c.json(toDelivery(world, requireDelivery(world, c.req.valid('param').deliveryid)), 200);
  });

  app.openapi(redeliver, async (c) => {
    const store = c.get('store');
    const ids = c.get('ids');
    const clock = c.get('clock');
    const ticker = c.get('ticker');
    const { deliveryid } = c.req.valid('param');
    const record = await store.transact((write) =>
      queueRedelivery(write.world, { ids, now: clock.now() }, requireDelivery(write.world, deliveryid)),
    );
    // The run starts the attempt when there is room for it; this request alone then waits for its
    // outcome (at most the delivery time-out away), while the run and every other request go on.
    await ticker.run();
    await ticker.settled(deliveryWorkKey(record.deliveryid));
    const world = store.world;
    const current = own(world.webhook_deliveries, record.deliveryid) ?? record;
    return c.json(toDelivery(world, current), 200);
  });
}
