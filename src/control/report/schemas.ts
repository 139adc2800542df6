import { z } from '@hono/zod-openapi';
import { FINDING_KIND_NAMES } from './kinds.js';

/** The wire shapes of the readiness report (GET /__sandbox/report). */

export const tags = ['Sandbox control'];

export const REPORT_FORMATS = ['json', 'markdown', 'junit'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const FindingKindSchema = z.enum(FINDING_KIND_NAMES).openapi('SandboxFindingKind');

export const FindingSchema = z
  .object({
    kind: FindingKindSchema,
    severity: z.enum(['error', 'warning', 'info']),
    title: z.string(),
    detail: z.string().openapi({ description: 'What was seen, with the figures' }),
    advice: z.string().openapi({ description: 'What to change in the client' }),
    docs: z.string().openapi({
      description:
        'Where the guides explain this kind of finding: its section of the readiness guide the sandbox serves, as an absolute url of the server that answered (`http://127.0.0.1:4010/guides/readiness#token_not_reused`)',
    }),
    consumer_id: z.string().nullable(),
    connection_id: z.string().nullable(),
    operation_id: z.string().nullable(),
    count: z.number().int().openapi({ description: 'How many times it was seen' }),
    requests: z
      .array(z.string())
      .openapi({ description: 'Journal ids of the first requests behind it (GET /__sandbox/requests/{id})' }),
    deliveries: z.array(z.string()).openapi({ description: 'Webhook deliveries behind it' }),
  })
  .openapi('SandboxFinding');

export const CoverageEntrySchema = z
  .object({
    consumer_id: z.string(),
    connection_id: z.string().nullable(),
    integration_id: z.number().int().nullable(),
    integration: z.string().nullable(),
    api: z.string().nullable(),
    operations: z.array(
      z.object({
        operation_id: z.string(),
        calls: z.number().int(),
        errors: z.number().int(),
        supported: z.boolean().nullable(),
      }),
    ),
    supported: z.number().int().openapi({ description: 'Operations the integration supports' }),
  })
  .openapi('SandboxCoverage');

export const ReportSchema = z
  .object({
    generated_at: z.iso.datetime().openapi({ description: 'Sandbox time of the report' }),
    consumer_id: z.string().nullable(),
    connection_id: z.string().nullable(),
    requests: z.object({
      recorded: z.number().int(),
      api_calls: z.number().int(),
      token_requests: z.number().int(),
      first: z.string().nullable(),
      last: z.string().nullable(),
    }),
    tokens: z.object({
      requested: z.number().int(),
      most_in_one_hour: z.number().int(),
      distinct_used: z.number().int(),
      expired_uses: z.number().int(),
    }),
    writes: z.object({
      total: z.number().int().openapi({ description: "Creates and updates of the verticals' data" }),
      with_request_id: z
        .number()
        .int()
        .openapi({ description: 'Of them, sent with x-chift-client-requestid' }),
      transactions_looked_up: z
        .number()
        .int()
        .openapi({ description: 'Calls of GET .../connections/{connection_id}/transactions' }),
    }),
    summary: z.object({
      findings: z.number().int(),
      errors: z.number().int(),
      warnings: z.number().int(),
      infos: z.number().int(),
      kinds: z.record(z.string(), z.number().int()),
    }),
    coverage: z.array(CoverageEntrySchema),
    findings: z.array(FindingSchema),
  })
  .openapi('SandboxReport');

export const ReportQuery = z.object({
  consumer_id: z.string().max(100).optional().openapi({ description: 'Only what concerns this consumer' }),
  connection_id: z
    .string()
    .max(100)
    .optional()
    .openapi({ description: "Only this connection's requests (the webhooks stay the account's)" }),
  format: z
    .enum(REPORT_FORMATS)
    .optional()
    .openapi({ description: 'json (default), markdown (for a person) or junit (for CI test reports)' }),
  fail_on: z.string().max(2000).optional().openapi({
    description:
      'Finding kinds (comma-separated), or a severity (error, warning, info) meaning it and above: in junit, these findings are failures, the others pass',
  }),
});
