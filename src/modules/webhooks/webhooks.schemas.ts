import { z } from '@hono/zod-openapi';

export const Status = z
  .enum(['active', 'inactive'])
  .openapi('Status', { description: 'Whether a webhook instance receives deliveries' });

export const WebhookItem = z
  .object({
    event: z.string().openapi({ description: 'The event a webhook instance can subscribe to' }),
    api: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'The One API the event belongs to; null for events of the platform' }),
  })
  .openapi('WebhookItem');

export const WebhookInstancePostItem = z
  .object({
    event: z.string().max(80).openapi({ description: 'One of the events of GET /webhooks/list' }),
    url: z.string().max(500).openapi({ description: 'The absolute http(s) url deliveries are posted to' }),
    signingsecret: z
      .string()
      .max(100)
      .nullable()
      .optional()
      .openapi({ description: 'Secret used to sign each delivery; never returned' }),
    integrationid: z.number().int().nullable().optional().openapi({
      description:
        'The integration whose events the instance receives. Mandatory for an event of a One API (the integration must belong to it).',
    }),
  })
  .openapi('WebhookInstancePostItem');

export const WebhookInstanceGetItem = z
  .object({
    webhookid: z.uuid().openapi({ description: 'Id of the webhook instance' }),
    accountid: z.uuid().openapi({ description: 'The account the instance belongs to' }),
    createdby: z.uuid().nullable().optional().openapi({ description: 'The user who created the instance' }),
    createdon: z.iso.datetime().openapi({ description: 'When the instance was created' }),
    event: z.string().openapi({ description: 'The subscribed event' }),
    url: z.string().openapi({ description: 'Where deliveries are posted' }),
    status: Status,
    integrationid: z
      .number()
      .int()
      .nullable()
      .optional()
      .openapi({ description: 'The integration the instance is restricted to, if any' }),
  })
  .openapi('WebhookInstanceGetItem');

export const WebhookInstancePatchItem = z
  .object({
    // Status.nullable() would render as allOf [Status, {type: [string, null]}], which forbids null,
    // and a union with null loses the enum's validation message: the values are taken from Status.
    status: z
      .enum(Status.options)
      .nullable()
      .optional()
      .openapi({ description: 'New status; null leaves it unchanged' }),
    url: z
      .string()
      .max(500)
      .nullable()
      .optional()
      .openapi({ description: 'New delivery url; null leaves it unchanged' }),
    signingsecret: z.string().max(100).nullable().optional().openapi({
      description: 'New signing secret; null leaves it unchanged, an empty string removes it',
    }),
  })
  .openapi('WebhookInstancePatchItem');

export const WebhookLogItem = z
  .object({
    webhooklogid: z.uuid().openapi({ description: 'Id of the delivery' }),
    webhookid: z.uuid().openapi({ description: 'The instance the delivery was made for' }),
    event: z.string().openapi({ description: 'The delivered event' }),
    url: z.string().openapi({ description: 'The url the delivery was posted to' }),
    accountid: z.string().openapi({ description: 'The account of the instance' }),
    createdon: z.iso.datetime().openapi({ description: 'When the delivery was made' }),
    httpstatus: z.number().int().openapi({
      description: 'HTTP status answered by the receiver; 0 when none came (time-out, connection error)',
    }),
    integrationid: z
      .number()
      .int()
      .nullable()
      .optional()
      .openapi({ description: 'The integration the event came from, if any' }),
  })
  .openapi('WebhookLogItem');

export const WebhookIdParam = z.object({
  webhookid: z
    .uuid()
    .openapi({ param: { name: 'webhookid', in: 'path' }, description: 'Id of the webhook instance' }),
});

export const WebhooksQuery = z.object({
  status: Status.optional().openapi({ description: 'Only the instances of this status' }),
});

export type WebhookItemOut = z.infer<typeof WebhookItem>;
export type WebhookInstanceOut = z.infer<typeof WebhookInstanceGetItem>;
export type WebhookLogOut = z.infer<typeof WebhookLogItem>;
export type WebhookPostInput = z.infer<typeof WebhookInstancePostItem>;
export type WebhookPatchInput = z.infer<typeof WebhookInstancePatchItem>;
