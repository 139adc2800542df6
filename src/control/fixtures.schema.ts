import { z } from '@hono/zod-openapi';
import { inCalendar } from '../lib/calendar.js';
import { calendarInstant } from '../lib/calendar-schemas.js';
import { messages } from '../lib/errors.js';
import { LIFE_EVENTS } from '../modules/connections/index.js';
import { PostConsumerItem } from '../modules/consumers/index.js';
import { COLUMN_TYPES } from '../modules/datastores/index.js';
import {
  CreateConsumerSyncItem,
  CreateSyncItem,
  EnableFlowConsumer,
  ReadSyncMappingItem,
} from '../modules/syncs/index.js';
import { WebhookInstancePostItem } from '../modules/webhooks/index.js';
import type { VerticalFixtures } from '../platform/fixtures/kit.js';
import { id, ref } from '../platform/fixtures/kit.js';
import type { AnyVerticalModule } from '../platform/vertical-module.js';

/**
 * The fixture document: a world declared in one JSON or YAML file. Each record of a vertical takes
 * the body of the API operation that creates it (the same zod schema), plus an optional `id` (kept,
 * instead of one derived from the seed) and an optional `ref` (a name other records of the document
 * use in place of the id). GET /__sandbox/fixtures/schema serves this schema as a JSON Schema.
 *
 * A connection's vertical blocks are declared by the verticals' modules (<v>.fixtures.ts): the
 * document's schema is built from an app's list of verticals, once per list.
 */

// ---------------------------------------------------------------------------------------------
// The connector's custom routes.

export const CustomCollectionFixture = z
  .object({
    connector: z
      .union([z.number().int(), z.string().min(1)])
      .optional()
      .describe(
        "The connector the records belong to, as a consumer's custom route names it: its integration id or its name in lower case with dashes (sandbox-custom); it must be the connection's. Left out: the connection's",
      ),
    path: z
      .string()
      .min(1)
      .describe(
        "The custom path of the collection, below the route's prefix: products, v2/orders (.../custom/{connector}/products for a Custom connection, .../accounting/custom/products, .../invoicing/custom/products, .../banking/custom/refresh)",
      ),
    records: z
      .array(z.record(z.string(), z.unknown()))
      .default([])
      .describe(
        "Records as a POST to the path takes them: an `id` (a string or a whole number) is kept as the record's id, else one derived from the seed is given; none: an empty collection",
      ),
  })
  .strict();

// ---------------------------------------------------------------------------------------------
// The platform.

/** A vertical module that declares a block of the document. */
type WithFixtures = AnyVerticalModule & { fixtures: VerticalFixtures };

/** The block of each vertical with fixtures, optional, by the vertical's key. */
function verticalBlocks(verticals: readonly AnyVerticalModule[]): Record<string, z.ZodOptional<z.ZodType>> {
  return Object.fromEntries(
    verticals
      .filter((module): module is WithFixtures => module.fixtures !== undefined)
      .map((module) => [module.key, module.fixtures.schema.optional()]),
  );
}

/** A connection: the platform's fields, then a block for each vertical with fixtures, then `custom`. */
function connectionFixture(verticals: readonly AnyVerticalModule[]) {
  const blocks = verticalBlocks(verticals);
  return z
    .object({
      id: id(),
      integration: z
        .union([z.number().int(), z.string().min(1)])
        .describe('The integration: its id (1000) or its name (Odoo)'),
      name: z.string().max(80).optional(),
      status: z
        .enum(['active', 'inactive'])
        .default('active')
        .describe('active: with credentials (sandbox values when none are given); inactive: awaiting them'),
      credentials: z.record(z.string(), z.string()).optional().describe('Credentials by name'),
      post_connections: z.record(z.string(), z.string()).optional().describe('Post connection values by id'),
      seeded: z
        .boolean()
        .default(true)
        .describe(
          "false: the connection's data holds the records of its blocks only, none generated from the seed (the software's reference data, its taxes, locations and catalogue, stays)",
        ),
      ...blocks,
      custom: z
        .array(CustomCollectionFixture)
        .optional()
        .describe(
          "Records of the connection's custom routes (Custom, Accounting, Invoicing and Banking connections), by custom path",
        ),
    })
    .strict();
}

function consumerFixture(verticals: readonly AnyVerticalModule[]) {
  return PostConsumerItem.extend({
    id: id(),
    ref: ref(),
    connections: z.array(connectionFixture(verticals)).optional(),
  }).strict();
}

export const WebhookFixture = WebhookInstancePostItem.extend({ id: id() }).strict();

export const SyncFlowFixture = EnableFlowConsumer.extend({
  flow: z.string().min(1).describe('A flow of the sync: its id or name'),
}).strict();

export const SyncConsumerFixture = CreateConsumerSyncItem.omit({ syncid: true })
  .extend({
    consumer: z.string().min(1).describe('The consumer: a consumer ref of the document or an id'),
    flows: z
      .array(SyncFlowFixture)
      .optional()
      .describe(
        'Flows enabled for the consumer: POST /consumers/{consumer_id}/syncs/{syncid}/flows/{flowid}/enable, flow naming the flow',
      ),
    mappings: z
      .array(ReadSyncMappingItem)
      .optional()
      .describe(
        "The consumer's mappings: PATCH /consumers/{consumer_id}/syncs/{syncid} (after a flow is enabled)",
      ),
  })
  .strict();

export const SyncFixture = CreateSyncItem.extend({
  id: id(),
  consumers: z
    .array(SyncConsumerFixture)
    .optional()
    .describe(
      'Consumers set up for the sync: POST /consumers/{consumer_id}/syncs (integrationids, country, link_metadata), then their flows',
    ),
}).strict();

export const DatastoreFixture = z
  .object({
    id: id(),
    name: z.string().min(1).max(255).describe("Unique among the account's datastores"),
    status: z.enum(['active', 'inactive']).default('active'),
    columns: z
      .array(
        z
          .object({
            name: z.string().min(1),
            title: z.string().optional(),
            type: z.enum(COLUMN_TYPES),
            optional: z.boolean().default(false),
          })
          .strict(),
      )
      .min(1),
    search_column: z.string().nullable().optional(),
    rows: z
      .array(
        z
          .object({
            consumer: z.string().min(1).describe('The consumer of the row: a ref or an id'),
            data: z.record(z.string(), z.unknown()),
          })
          .strict(),
      )
      .optional()
      .describe('POST /consumers/{consumer_id}/datastore/{datastoreid}/data, one row each'),
  })
  .strict();

/** The most events one timeline may declare at once (a `repeat` counts each time). */
export const MAX_TIMELINE_EVENTS = 1_000;

/**
 * An event of the timeline: at an instant, records added to an existing connection through the
 * vertical's block (as a fixture's connection declares them), or something that happens to the
 * connection (its credentials expire, its software or local agent cannot be reached, it recovers).
 */
export function timelineEntry(verticals: readonly AnyVerticalModule[]) {
  return z
    .object({
      at: calendarInstant().describe('When it happens, on the sandbox clock'),
      consumer: z
        .string()
        .min(1)
        .describe('The consumer: its id (or, in a fixture document, a consumer ref of the document)'),
      connection: z
        .string()
        .min(1)
        .optional()
        .describe("The connection: its id; default: the consumer's active connection of the block's One API"),
      event: z
        .enum(LIFE_EVENTS)
        .optional()
        .describe(
          "credentials_expired: the connection turns inactive, an issue opens, until a new link repairs it; unreachable / agent_down: its operations answer the service's 502 until `until` or a recovered event; recovered: the outage ends",
        ),
      until: calendarInstant()
        .optional()
        .describe('For unreachable and agent_down: when it recovers (default: at a recovered event)'),
      repeat: z
        .number()
        .int()
        .min(1)
        .max(MAX_TIMELINE_EVENTS)
        .default(1)
        .describe('Happens this many times (a burst of sales), every_seconds apart'),
      every_seconds: z.number().int().min(1).max(86_400).default(60),
      ...verticalBlocks(verticals),
    })
    .strict()
    .refine(
      (entry) =>
        (entry.event !== undefined) !==
        Object.keys(entry).some((key) => verticals.some((module) => module.key === key)),
      { message: 'Give either an event or the records of one vertical block' },
    )
    .refine((entry) => inCalendar(Date.parse(entry.at) + (entry.repeat - 1) * entry.every_seconds * 1000), {
      message: messages.outsideCalendar,
      path: ['repeat'],
    });
}

/** The document's schema for a list of verticals. */
function buildFixtureDocument(verticals: readonly AnyVerticalModule[]) {
  return z
    .object({
      $schema: z.string().optional().describe('Ignored: lets an editor find this schema'),
      replace: z
        .boolean()
        .default(false)
        .describe(
          'true: the document replaces the seeded world (only the accounts, environments and keys stay); false: it adds to it',
        ),
      environment: z
        .enum(['sandbox', 'production'])
        .default('sandbox')
        .describe('The environment of the seeded account the records go to'),
      mcp_scopes: z
        .array(z.string())
        .optional()
        .describe(
          "The MCP scopes the vendor allows on that environment, in place of its list (['*']: every scope): what its MCP tokens may carry and the OAuth consent page offers",
        ),
      consumers: z.array(consumerFixture(verticals)).default([]),
      webhooks: z.array(WebhookFixture).default([]),
      syncs: z.array(SyncFixture).default([]),
      datastores: z.array(DatastoreFixture).default([]),
      timeline: z
        .array(timelineEntry(verticals))
        .max(MAX_TIMELINE_EVENTS)
        .default([])
        .describe('Events to happen when the sandbox clock reaches them (POST /__sandbox/timeline)'),
    })
    .strict();
}

type FixtureDocumentSchema = ReturnType<typeof buildFixtureDocument>;

/** Building the schema costs some milliseconds: each list of verticals (each app's) has its own, once. */
const documents = new WeakMap<readonly AnyVerticalModule[], FixtureDocumentSchema>();

/** The schema of fixture documents for a list of verticals (an app's `services.verticals`). */
export function fixtureDocument(verticals: readonly AnyVerticalModule[]): FixtureDocumentSchema {
  let schema = documents.get(verticals);
  if (!schema) {
    schema = buildFixtureDocument(verticals);
    documents.set(verticals, schema);
  }
  return schema;
}

export type FixtureDocumentInput = z.input<FixtureDocumentSchema>;
export type FixtureDocumentValue = z.output<FixtureDocumentSchema>;
export type ConsumerFixtureValue = z.output<ReturnType<typeof consumerFixture>>;
export type ConnectionFixtureValue = z.output<ReturnType<typeof connectionFixture>>;
export type SyncConsumerFixtureValue = z.output<typeof SyncConsumerFixture>;
export type TimelineEntryValue = z.output<ReturnType<typeof timelineEntry>>;
export type TimelineEntryInput = z.input<ReturnType<typeof timelineEntry>>;

/** The JSON Schema of the document (the input it accepts), as GET /__sandbox/fixtures/schema serves it. */
export function fixtureJsonSchema(verticals: readonly AnyVerticalModule[]): Record<string, unknown> {
  const schema = z.toJSONSchema(fixtureDocument(verticals), { io: 'input', unrepresentable: 'any' });
  return { ...schema, title: 'unified-api-sandbox fixture document' };
}

// ---------------------------------------------------------------------------------------------
// The answer: what was created, with the ids, in the document's order.

const ids = z.array(z.string());

export const FixtureResult = z
  .object({
    replaced: z.boolean().openapi({ description: 'Whether the document replaced the seeded world' }),
    consumers: z.array(
      z.object({
        consumerid: z.string(),
        name: z.string(),
        ref: z.string().nullable(),
        connections: z.array(
          z.object({
            connectionid: z.string(),
            integrationid: z.number().int(),
            status: z.enum(['active', 'inactive']),
            records: z.record(z.string(), z.record(z.string(), ids)).openapi({
              description: 'Ids of the records by vertical and kind: {"accounting": {"invoices": [...]}}',
            }),
          }),
        ),
      }),
    ),
    webhooks: z.array(z.object({ webhookid: z.string(), event: z.string() })),
    syncs: z.array(z.object({ syncid: z.string(), name: z.string(), flows: ids, consumers: ids })),
    datastores: z.array(z.object({ datastoreid: z.string(), name: z.string(), rows: ids })),
    timeline: ids.optional().openapi({ description: 'The ids of the timeline events declared, when any' }),
  })
  .openapi('SandboxFixtureResult');

export type FixtureResultValue = z.infer<typeof FixtureResult>;
