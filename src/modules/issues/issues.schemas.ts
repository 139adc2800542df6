import { z } from '@hono/zod-openapi';

export const IssueStatus = z
  .enum(['open', 'closed', 'all'])
  .openapi('IssueStatus', { description: 'Status of an issue; `all` in a filter takes both' });

export const IssueLevel = z
  .enum(['error', 'warning'])
  .openapi('IssueLevel', { description: 'How serious an issue is' });

export const ErrorInfo = z
  .object({
    error_code: z.string().openapi({ description: 'Code of the error' }),
    status: z.string().openapi({ description: 'Status the software answered with' }),
    title: z.string().openapi({ description: 'Short title of the error' }),
    description: z.string().optional().openapi({ description: 'What the error means' }),
  })
  .openapi('ErrorInfo');

export const IssueEvent = z
  .object({
    id: z.string().openapi({ description: 'Id of the event' }),
    execution_id: z.string().openapi({ description: 'The execution in which the error happened' }),
    created_on: z.iso.datetime().openapi({ description: 'When it happened' }),
    context: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .openapi({ description: 'What was running' }),
    message: z.string().nullable().optional().openapi({ description: 'The message of the error' }),
  })
  .openapi('IssueEvent');

const issueFields = z.object({
  id: z.string().openapi({ description: 'Id of the issue' }),
  consumer_id: z.string().openapi({ description: 'The consumer concerned' }),
  connection_id: z.string().openapi({ description: 'The connection concerned' }),
  integration_id: z.number().int().openapi({ description: 'The integration of the connection' }),
  integration_name: z.string().openapi({ description: 'Name of the integration' }),
  created_on: z.iso.datetime().openapi({ description: 'When it first happened' }),
  updated_on: z.iso.datetime().openapi({ description: 'When the issue last changed' }),
  last_seen: z.iso.datetime().openapi({ description: 'When it last happened' }),
  error: ErrorInfo,
  occurrences: z.number().int().openapi({ description: 'How many times it happened' }),
  level: IssueLevel,
  status: z.enum(['open', 'closed']).optional().openapi({
    description: 'Whether the issue is open (sandbox addition: the filter has it, the item did not)',
  }),
});

export const IssueItem = issueFields.openapi('IssueItem');

export const ExtendedIssueItem = issueFields
  .extend({
    events: z.array(IssueEvent).optional().openapi({ description: 'Each time it happened, oldest first' }),
  })
  .openapi('ExtendedIssueItem');

export const IssuesQuery = z.object({
  created_on: z.iso
    .date()
    .optional()
    .openapi({
      param: { name: 'created_on', in: 'query' },
      description: 'Issues created on this day or later',
    }),
  last_seen_on: z.iso
    .date()
    .optional()
    .openapi({
      param: { name: 'last_seen_on', in: 'query' },
      description: 'Issues seen on this day or later',
    }),
  error_code: z
    .string()
    .optional()
    .openapi({ param: { name: 'error_code', in: 'query' }, description: 'Issues of this error code' }),
  status: IssueStatus.optional().openapi({
    param: { name: 'status', in: 'query', description: 'open, closed, or all (the default)' },
  }),
  level: IssueLevel.optional().openapi({
    param: { name: 'level', in: 'query', description: 'Issues of this level' },
  }),
});

export const ConsumerIssuesParams = z.object({
  consumer_id: z
    .string()
    .openapi({ param: { name: 'consumer_id', in: 'path' }, description: 'Id of the consumer' }),
});

export const IssueParams = z.object({
  issue_id: z.string().openapi({ param: { name: 'issue_id', in: 'path' }, description: 'Id of the issue' }),
});

export const IssueQuery = z.object({
  last_execution_only: z
    .enum(['true', 'false'])
    .optional()
    .openapi({
      param: { name: 'last_execution_only', in: 'query' },
      description: 'true: only the events of the last execution; default false',
    }),
});

export type IssuesFilters = z.infer<typeof IssuesQuery>;
export type IssueItemOut = z.infer<typeof IssueItem>;
export type ExtendedIssueOut = z.infer<typeof ExtendedIssueItem>;
