import { z } from '@hono/zod-openapi';

/**
 * Wire shapes of the Datalab: a Cube-style semantic layer over the sandbox's data (cube schemas and
 * load queries), under the reference's names.
 */

export const PublicCubeMetaMember = z
  .object({
    name: z.string().openapi({ description: 'cube.member, as queries name it' }),
    title: z.string().nullable().optional(),
    shortTitle: z.string().nullable().optional(),
    aliasName: z.string().nullable().optional(),
    type: z.string().nullable().optional().openapi({ description: 'number, string, time or boolean' }),
    description: z.string().nullable().optional(),
    aggType: z.string().nullable().optional().openapi({ description: 'How a measure aggregates' }),
    drillMembers: z.array(z.string()).nullable().optional(),
    format: z.string().nullable().optional(),
    primaryKey: z.boolean().nullable().optional(),
    suggestFilterValues: z.boolean().nullable().optional(),
    nullable: z.boolean().nullable().optional(),
    values: z
      .array(z.string())
      .nullable()
      .optional()
      .openapi({ description: 'The values a dimension takes' }),
    allowedGranularities: z.array(z.string()).nullable().optional(),
    jsonSchema: z.record(z.string(), z.unknown()).nullable().optional(),
    monetary: z.boolean().nullable().optional(),
    currencyDimension: z.string().nullable().optional(),
    currencySensitive: z.boolean().nullable().optional(),
    alignAxis: z.string().nullable().optional().openapi({
      description:
        'The axis a dimension is aligned on in POST /datalab/query-groups-join (dimensions of one axis join; the axis names the joined column)',
    }),
  })
  .openapi('PublicCubeMetaMember', { description: 'A measure, a dimension or a segment of a cube' });

export const PublicCubeRelationship = z
  .object({
    target: z.string(),
    relationship: z.enum(['one_to_one', 'one_to_many', 'many_to_one']),
  })
  .openapi('PublicCubeRelationship', { description: 'How a cube relates to another' });

export const PublicCubeMetaCube = z
  .object({
    name: z.string(),
    type: z.enum(['cube', 'view']).nullable().optional(),
    title: z.string().nullable().optional(),
    description: z.string().nullable().optional(),
    connectedComponent: z.number().int().nullable().optional(),
    measures: z.array(PublicCubeMetaMember).optional(),
    dimensions: z.array(PublicCubeMetaMember).optional(),
    hierarchies: z.array(z.record(z.string(), z.unknown())).optional(),
    segments: z.array(PublicCubeMetaMember).optional(),
    relationships: z.array(PublicCubeRelationship).optional(),
    domain: z.string().nullable().optional(),
    queryGroup: z.string().nullable().optional(),
  })
  .openapi('PublicCubeMetaCube', { description: 'A cube: what can be measured, and by what' });

export const CubeLeafFilter = z
  .object({
    member: z.string(),
    operator: z.string().openapi({
      description:
        'equals, notEquals, contains, notContains, startsWith, endsWith, gt, gte, lt, lte, set, notSet, inDateRange, notInDateRange, beforeDate, afterDate',
    }),
    values: z.array(z.string()).nullable().optional(),
  })
  .openapi('CubeLeafFilter', { description: 'A condition on one member' });

export type CubeFilterValue =
  | z.infer<typeof CubeLeafFilter>
  | { and: CubeFilterValue[] }
  | { or: CubeFilterValue[] };

export const CubeAndFilter: z.ZodType<{ and: CubeFilterValue[] }> = z
  .object({
    get and() {
      return z.array(CubeFilter);
    },
  })
  .openapi('CubeAndFilter', { description: 'Every condition holds' });

export const CubeOrFilter: z.ZodType<{ or: CubeFilterValue[] }> = z
  .object({
    get or() {
      return z.array(CubeFilter);
    },
  })
  .openapi('CubeOrFilter', { description: 'At least one condition holds' });

export const CubeFilter: z.ZodType<CubeFilterValue> = z.union([CubeLeafFilter, CubeAndFilter, CubeOrFilter]);

export const CubeTimeDimension = z
  .object({
    dimension: z.string(),
    dateRange: z
      .union([z.string(), z.array(z.string())])
      .nullable()
      .optional()
      .openapi({
        description:
          "[from, to] (ISO dates, both included), one date, or a relative range: today, yesterday, this week/month/quarter/year, last week/month/quarter/year, 'last N days'",
      }),
    compareDateRange: z.array(z.array(z.string())).nullable().optional(),
    granularity: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: 'second, minute, hour, day, week, month, quarter or year' }),
  })
  .openapi('CubeTimeDimension', { description: 'A time dimension: its range and the buckets to group by' });

export const CubeOrderItem = z
  .object({
    id: z.string().nullable().optional(),
    member: z.string().nullable().optional(),
    desc: z.boolean().nullable().optional(),
    direction: z.enum(['asc', 'desc']).nullable().optional(),
  })
  .openapi('CubeOrderItem', { description: 'A member to sort by' });

export const CubeLoadQuery = z
  .object({
    measures: z.array(z.string()).optional(),
    dimensions: z.array(z.string()).optional(),
    segments: z.array(z.string()).optional(),
    filters: z.array(CubeFilter).optional(),
    timeDimensions: z.array(CubeTimeDimension).optional(),
    order: z
      .union([
        z.record(z.string(), z.enum(['asc', 'desc'])),
        z.array(CubeOrderItem),
        z.array(z.array(z.string())),
      ])
      .nullable()
      .optional(),
    limit: z
      .number()
      .int()
      .nullable()
      .optional()
      .openapi({ description: 'At most 50000 rows (default 10000)' }),
    offset: z.number().int().nullable().optional(),
    timezone: z.string().nullable().optional().openapi({
      description:
        'An IANA time zone (default UTC): date ranges, buckets and time values are read in its local time',
    }),
    total: z.boolean().nullable().optional(),
    renewQuery: z.boolean().nullable().optional(),
    ungrouped: z.boolean().nullable().optional(),
  })
  .openapi('CubeLoadQuery', { description: 'What to measure, by what, over which rows' });

export const CubeJoinQuery = z
  .object({
    queries: z
      .array(CubeLoadQuery)
      .min(1)
      .max(5)
      .openapi({ description: 'One to five load queries, each over one query group' }),
    align: z.array(z.array(z.string().nullable())).optional().openapi({
      description:
        'Each entry: one column per query, in the order of the queries (a dimension of that query, or null where the query lacks the axis). The dimensions of an entry share one alignAxis, which names the joined column.',
    }),
  })
  .openapi('CubeJoinQuery', {
    description: 'Several single-group queries whose answers are full-outer joined on the aligned dimensions',
  });

export const ExecutionResult = z
  .object({
    column: z.string().openapi({ description: 'The member (time dimensions: member.granularity)' }),
    title: z.string().nullable().optional(),
    data: z.array(z.unknown()).openapi({ description: 'One value per row of the answer' }),
    type: z.string(),
  })
  .openapi('ExecutionResult', { description: 'One column of the answer' });

export const QueryMeta = z
  .object({
    currency: z.array(z.string()).nullable().optional(),
    monetary_measures: z.array(z.string()).nullable().optional(),
  })
  .openapi('QueryMeta', { description: 'Currencies of the rows, and which measures are amounts' });

export const QueryResponse = z
  .object({
    results: z.array(ExecutionResult),
    meta: QueryMeta.nullable().optional(),
  })
  .openapi('QueryResponse', { description: 'The answer, column by column' });

export type CubeLoadQueryInput = z.infer<typeof CubeLoadQuery>;
export type CubeJoinQueryInput = z.infer<typeof CubeJoinQuery>;
export type CubeMetaOut = z.infer<typeof PublicCubeMetaCube>;
export type QueryResponseOut = z.infer<typeof QueryResponse>;
