import { z } from '@hono/zod-openapi';

const nullableString = (max?: number) => (max ? z.string().max(max) : z.string()).nullable().optional();

export const ConsumerItem = z
  .object({
    consumerid: z.uuid().openapi({ description: 'Id of the consumer' }),
    name: z.string().openapi({ minLength: 1, description: 'Name of the consumer' }),
    // Always sent (null when unset), yet optional in the schema as in the reference.
    email: z.string().nullable().optional().openapi({ description: 'E-mail address of the consumer' }),
    internal_reference: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: "The vendor's own reference of the consumer" }),
    redirect_url: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'Where the end user goes after the connection link' }),
  })
  .openapi('ConsumerItem');

// The name's rules (length, printable characters) answer 400 as the service does, so the
// schema only types it; minLength/maxLength document the rule. The shape is kept unregistered so
// that both bodies derive from it as flat objects: extending the registered PostConsumerItem would
// render UpdateConsumerItem as allOf [PostConsumerItem, ...], which keeps `name` required.
const consumerFields = z.object({
  name: z.string().openapi({ minLength: 1, maxLength: 255, description: 'Name of the consumer' }),
  email: nullableString(80).openapi({ description: 'E-mail address of the consumer' }),
  internal_reference: nullableString(255).openapi({ description: "The vendor's own reference" }),
  redirect_url: nullableString().openapi({
    description: 'Where the end user goes after the connection link',
  }),
});

export const PostConsumerItem = consumerFields.openapi('PostConsumerItem');

export const UpdateConsumerItem = consumerFields
  .extend({
    name: z
      .string()
      .nullable()
      .optional()
      .openapi({ maxLength: 255, description: 'New name of the consumer' }),
  })
  .openapi('UpdateConsumerItem');

// The path parameter every consumer-scoped route takes is the route kernel's (platform/openapi.ts).
export { ConsumerIdParam } from '../../platform/openapi.js';

export const ConsumersQuery = z.object({
  search: z.string().optional().openapi({ description: 'Part of the name, e-mail or internal reference' }),
  internal_reference: z.string().optional().openapi({ description: 'Exact internal reference' }),
});

export type ConsumerItemOut = z.infer<typeof ConsumerItem>;
export type PostConsumerInput = z.infer<typeof PostConsumerItem>;
export type UpdateConsumerInput = z.infer<typeof UpdateConsumerItem>;
