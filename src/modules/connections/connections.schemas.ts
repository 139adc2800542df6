import { z } from '@hono/zod-openapi';
import { API_NAMES } from '../../platform/catalogue.js';
import { ConsumerIdParam } from '../../platform/openapi.js';

export const ConnectionStatus = z
  .enum(['active', 'inactive'])
  .openapi('ConnectionStatus', { description: 'Whether a connection can be used' });

export const LocalAgentStatus = z
  .enum(['up', 'down'])
  .openapi('LocalAgentStatus', { description: 'Whether the on-premises agent answers' });

export const LocalAgentInfo = z.object({ status: LocalAgentStatus }).openapi('LocalAgentInfo');

export const ConnectionItem = z
  .object({
    connectionid: z.uuid().openapi({ description: 'Id of the connection' }),
    name: z.string().openapi({ description: 'Name of the connection' }),
    integration: z.string().openapi({ description: 'Name of the integration' }),
    integrationid: z.number().int().openapi({ description: 'Id of the integration' }),
    api: z.string().openapi({ description: 'The One API of the integration' }),
    data: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .openapi({ description: 'Extra data of the connection, if any' }),
    status: ConnectionStatus,
    agent: z
      .union([LocalAgentInfo, z.null()])
      .optional()
      .openapi({ description: 'For integrations run by a local agent: whether the agent is up' }),
  })
  .openapi('ConnectionItem');

/** Keys must be unique within each list: a repeated key is a validation error, not a silent overwrite. */
const uniqueKeys = (list: { key: string }[] | null | undefined, ctx: z.RefinementCtx) => {
  if (!list) return;
  const seen = new Set<string>();
  list.forEach((item, index) => {
    if (seen.has(item.key)) {
      ctx.addIssue({ code: 'custom', path: [index, 'key'], message: `The key '${item.key}' is given twice` });
    }
    seen.add(item.key);
  });
};

// One unregistered key/value shape: extending a registered schema would render as allOf [it, ...].
const keyValue = z.object({ key: z.string(), value: z.string() });

export const CredentialItem = keyValue
  .extend({
    key: z.string().openapi({ description: 'Name of one of the credentials of the integration' }),
    value: z.string().openapi({ description: 'Its value' }),
  })
  .openapi('CredentialItem');

export const PostConnectionValueItem = keyValue
  .extend({
    key: z.string().openapi({ description: "The id of one of the integration's post connections" }),
    value: z.string().openapi({ description: 'The chosen value (the id of a journal, a location, ...)' }),
  })
  .openapi('PostConnectionValueItem', {
    description: 'Sandbox extension: the value of one post connection of the integration.',
  });

export const DatetimeValueItem = keyValue
  .extend({
    key: z.string().openapi({ description: 'Name of the value (history_start, say)' }),
    value: z.string().openapi({ format: 'date-time', description: 'An ISO 8601 date-time' }),
  })
  .openapi('DatetimeValueItem', {
    description:
      'Sandbox extension: one keyed date-time value of a connection. A value that is not an ISO 8601 date-time is refused with 422 "Invalid datetime format in key {key}".',
  });

const credentialsField = z.array(CredentialItem).nullable().optional().superRefine(uniqueKeys).openapi({
  description:
    "Credentials of the connection, as listed by GET /integrations. Given and complete: the connection is active at once; omitted: the end user fills them on the link's page.",
});

const postConnectionsField = z
  .array(PostConnectionValueItem)
  .nullable()
  .optional()
  .superRefine(uniqueKeys)
  .openapi({
    description:
      'Sandbox extension: post connection values. When given, every mandatory enabled post connection of the integration must be there.',
  });

const datetimesField = z
  .array(DatetimeValueItem)
  .nullable()
  .optional()
  .superRefine(uniqueKeys)
  .openapi({ description: 'Sandbox extension: keyed ISO 8601 date-time values (a history start, say).' });

/** The One APIs a link may offer; the reference leaves Communication out of this list. */
export const LINK_APIS = API_NAMES.filter((api) => api !== 'Communication') as Exclude<
  (typeof API_NAMES)[number],
  'Communication'
>[];

export const PostConnectionItem = z
  .object({
    integrationid: z.number().int().nullable().optional().openapi({
      description:
        'The integration to connect. Given: a connection is created (active when complete credentials come with it) and the link leads straight to it. Omitted: the link lets the end user pick an integration.',
    }),
    name: z.string().max(80).nullable().optional().openapi({
      description: "Name of the connection (with an integrationid); default: the integration's name",
    }),
    credentials: credentialsField,
    country: z.string().nullable().optional().openapi({
      description:
        'ISO 3166-1 alpha-2 code: the link offers only integrations supported there. Ignored with an integrationid.',
    }),
    redirect: z.boolean().nullable().optional().default(false).openapi({
      description:
        "Whether the link's page goes back to the consumer's redirect_url when done. Ignored with an integrationid (which always goes back).",
    }),
    apis: z.array(z.enum(LINK_APIS)).nullable().optional().openapi({
      description: 'The link offers only integrations of these One APIs. Ignored with an integrationid.',
    }),
    post_connections: postConnectionsField,
    datetimes: datetimesField,
  })
  .openapi('PostConnectionItem');

export const PatchConnectionItem = z
  .object({
    redirect: z.boolean().nullable().optional().default(false).openapi({
      description: "Whether the link's page goes back to the consumer's redirect_url when done",
    }),
    name: z.string().max(80).nullable().optional().openapi({ description: 'New name of the connection' }),
    credentials: credentialsField.openapi({
      description:
        'New credentials: they replace the former ones and must be complete; the connection becomes active. Omitted: the link lets the end user change them.',
    }),
    post_connections: postConnectionsField,
    datetimes: datetimesField.openapi({
      description:
        'Sandbox extension: keyed ISO 8601 date-time values; the keys given replace the former values.',
    }),
  })
  .openapi('PatchConnectionItem');

export const LinkItem = z
  .object({
    url: z.string().openapi({ description: 'The page where the end user completes the connection' }),
  })
  .openapi('LinkItem');

export const HTTPMethod = z
  .enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'])
  .openapi('HTTPMethod', { description: 'An HTTP method' });

export const ApiTransactionLookupOut = z
  .object({
    created_on: z.iso.datetime().openapi({ description: 'When the original request was served (UTC)' }),
    method: HTTPMethod,
    route: z.string().openapi({ description: 'Path of the original request' }),
    status_code: z.number().int().openapi({ description: 'Status code of its answer' }),
    created_entity_id: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'Id of the entity it created, if any' }),
  })
  .openapi('ApiTransactionLookupOut');

/** A non-uuid connectionid is the service's own 400, so the schema only types it as a string. */
export const ConnectionIdParams = ConsumerIdParam.extend({
  connectionid: z.string().openapi({
    param: { name: 'connectionid', in: 'path' },
    format: 'uuid',
    description: 'Id of the connection',
  }),
});

export const TransactionParams = ConsumerIdParam.extend({
  connection_id: z
    .uuid()
    .openapi({ param: { name: 'connection_id', in: 'path' }, description: 'Id of the connection' }),
});

export const TransactionQuery = z.object({
  client_request_id: z.string().openapi({
    description: 'The x-chift-client-requestid header value of the original request',
  }),
});

export const LinkParams = z.object({
  linkid: z.string().openapi({ param: { name: 'linkid', in: 'path' }, description: 'Id of the link' }),
});

export const LinkCompletion = z
  .object({
    integrationid: z.number().int().nullable().optional().openapi({
      description: "The chosen integration, when the link lets the end user pick one; else the link's own",
    }),
    credentials: z
      .record(z.string(), z.string())
      .nullable()
      .optional()
      .openapi({ description: 'The credentials, by name' }),
    post_connections: z.record(z.string(), z.string()).nullable().optional().openapi({
      description:
        "The post connection values, by id. The connection's former values stand for those not given; a mandatory one the connection does not hold gets the sandbox's placeholder (`{resource}-1`, as seeded connections hold). An empty value is refused.",
    }),
  })
  .openapi('SandboxLinkCompletion', {
    description: 'Sandbox extension: what the end user submits on the page of a connection link.',
  });

/**
 * The page's form: `integrationid` (when the link lets the end user pick one), one field per
 * credential, named `credential:{integrationid}:{name}`, and one per mandatory post connection, named
 * `post_connection:{integrationid}:{id}`, so that the fields of the integrations not chosen are told
 * apart.
 */
export const LinkCompletionForm = z.record(z.string(), z.string()).openapi('SandboxLinkCompletionForm', {
  description:
    'Sandbox extension: the form of the page of a connection link: integrationid, one credential:{integrationid}:{name} field per credential and one post_connection:{integrationid}:{id} field per mandatory post connection.',
});

export const LinkCompleted = z
  .object({
    status: z.literal('active').openapi({ description: 'The connection is active' }),
    connectionid: z.uuid().openapi({ description: 'Id of the connection' }),
  })
  .openapi('SandboxLinkCompleted', {
    description: 'Sandbox extension: answer of a completed connection link.',
  });

export type ConnectionItemOut = z.infer<typeof ConnectionItem>;
export type PostConnectionInput = z.infer<typeof PostConnectionItem>;
export type PatchConnectionInput = z.infer<typeof PatchConnectionItem>;
export type LinkCompletionInput = z.infer<typeof LinkCompletion>;
export type LinkCompletionFormInput = z.infer<typeof LinkCompletionForm>;
export type HttpMethodName = z.infer<typeof HTTPMethod>;
export type KeyValue = { key: string; value: string };
