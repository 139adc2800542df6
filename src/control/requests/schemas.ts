import { z } from '@hono/zod-openapi';
import { pageQuery } from '../../lib/pagination.js';
import { checkPathPattern, MAX_PATTERN_SEGMENTS } from '../../lib/path-pattern.js';

/** The wire shapes of the journal's control endpoints. */

export const tags = ['Sandbox control'];

// ---------------------------------------------------------------------------------------------------
// Control endpoints.

export const Headers_ = z.record(z.string(), z.string());

export const RequestEntrySchema = z
  .object({
    id: z.string().openapi({ description: 'Id of the entry (req_<n>, counting from 1 per sandbox)' }),
    time: z.iso.datetime().openapi({ description: 'Sandbox time at which the request arrived' }),
    method: z.string(),
    path: z.string(),
    query: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
    consumer_id: z
      .string()
      .nullable()
      .openapi({ description: 'The consumer of a /consumers/{consumer_id} path' }),
    connection_id: z.string().nullable().openapi({
      description:
        "The connection of the path, else the consumer's active connection of the path's vertical, else the X-Chift-ConnectionId header",
    }),
    client_request_id: z.string().nullable().openapi({ description: 'The x-chift-client-requestid header' }),
    request: z.object({
      headers: Headers_.openapi({
        description:
          'The request headers; Authorization shows the clientId of an API token, or mcp, admin or redacted; Cookie, Proxy-Authorization and any header named as a credential (*token*, *secret*, *key*...) or holding one (a JWT, a key the sandbox issued) show redacted',
      }),
      body: z.unknown().openapi({
        description:
          'Parsed JSON when whole, else text; null when none. Credentials in it (fields named as one, a JWT, a key the sandbox issued) show redacted',
      }),
      truncated: z
        .boolean()
        .openapi({ description: 'Whether the body was cut (64 Ki characters) or dropped' }),
    }),
    status: z.number().int().openapi({ description: 'The status answered; 0 when no answer was sent' }),
    response: z.object({
      body: z.unknown().openapi({ description: 'The JSON answer, parsed when whole, else its text' }),
      truncated: z.boolean(),
    }),
    redacted: z.boolean().openapi({
      description:
        'Whether both bodies were left out (null): always for the authentication routes (/token, /mcp-token, /oauth/...), whose bodies carry credentials',
    }),
    duration_ms: z.number().openapi({ description: 'Wall time spent answering, in milliseconds' }),
    fault: z.string().nullable().openapi({ description: 'The id of the fault that fired, if any' }),
  })
  .openapi('SandboxRequest');

export const RequestsQuery = pageQuery({
  method: z.string().max(16).optional().openapi({ description: 'Only this method' }),
  path: z
    .string()
    .max(500)
    .superRefine(checkPathPattern)
    .optional()
    .openapi({
      description: `A path pattern: {name} matches one segment, * one or more; * alone: all; at most ${MAX_PATTERN_SEGMENTS} segments`,
    }),
  consumer_id: z.string().max(100).optional().openapi({ description: 'Only requests under this consumer' }),
  status: z
    .string()
    .regex(/^(\d{1,3}|[1-5]xx)$/i, 'A status (201) or a class (4xx)')
    .optional()
    .openapi({ description: 'An exact status (201) or a class (2xx, 4xx, 5xx)' }),
  since: z.iso.datetime({ offset: true }).optional().openapi({ description: 'Sandbox time, inclusive' }),
  until: z.iso.datetime({ offset: true }).optional().openapi({ description: 'Sandbox time, inclusive' }),
});

export const RequestIdParam = z.object({
  id: z
    .string()
    .max(40)
    .openapi({ param: { name: 'id', in: 'path' }, description: 'Id of the journal entry' }),
});
