import { z } from '@hono/zod-openapi';
import { DatastoreDef, DatastoreStatus } from '../datastores/index.js';
import { ONE_API_CODES, ONE_API_TABLE } from './one-apis.js';
import { cronProblem } from './simulation/cron.js';

/** Wire shapes of syncs, flows, consumer syncs and executions. */

const jsonObject = () => z.record(z.string(), z.unknown());
const optionalString = () => z.string().nullable().optional();
const DATETIME = z.iso.datetime({ offset: true, local: true });

// ---------------------------------------------------------------------------------------------
// Enumerations.

export const TriggerType = z.enum(['timer', 'event']).openapi('TriggerType', {
  description: 'timer: runs on a cron schedule; event: runs when an event is sent',
});

export const TriggerPriority = z
  .enum(['NORMAL', 'MEDIUM', 'HIGH'])
  .openapi('TriggerPriority', { description: 'Priority of the runs of a trigger' });

export const ExecutionType = z
  .enum(['code', 'module'])
  .openapi('ExecutionType', { description: 'What a flow runs: code, or a module of the platform' });

export const ImportMode = z
  .enum(['IMPORT_ONLY_MISSING_DAYS', 'REIMPORT_ENTIRE_PERIOD'])
  .openapi('ImportMode', {
    description: 'Whether a run imports only the missing days or the whole period again',
  });

export const SyncConsumerStatus = z
  .enum(['active', 'inactive'])
  .openapi('SyncConsumerStatus', { description: 'Whether the consumer has completed the setup of the sync' });

export const SyncSkipReason = z
  .enum(['presync', 'connector_feature', 'challenge'])
  .openapi('SyncSkipReason', { description: 'Why a mapping is not asked of a consumer' });

export const FieldItemType = z.enum(['fixed', 'api']).openapi('FieldItemType', {
  description: 'fixed: the values are listed; api: they come from an API route',
});

// ---------------------------------------------------------------------------------------------
// Flows.

export const CronExpression = z
  .string()
  .superRefine((value, ctx) => {
    const problem = cronProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `Invalid cron schedule: ${problem}` });
  })
  .openapi({ description: 'A 5-field cron schedule in UTC (minute hour day-of-month month day-of-week)' });

export const FlowTrigger = z
  .object({
    id: z.string().openapi({ description: 'Id of the trigger in the flow (e.g. trigger-1)' }),
    type: TriggerType,
    cronschedules: z.array(CronExpression).nullable().optional().openapi({
      description: 'Timer trigger: the schedules a consumer may choose from (the first is the default)',
    }),
    visible: z
      .boolean()
      .nullable()
      .optional()
      .openapi({ description: 'Whether the trigger is shown; default true' }),
    definitionFields: z
      .array(jsonObject())
      .nullable()
      .optional()
      .openapi({ description: 'Fields of the context data this trigger takes (name, type, optional)' }),
    options: jsonObject().nullable().optional().openapi({ description: 'Options of the trigger' }),
    priority: TriggerPriority.optional().openapi({ description: 'Default NORMAL' }),
  })
  .openapi('FlowTrigger');

export const FlowExecutionChain = z
  .object({ name: z.string().openapi({ description: 'Name of the module to run' }) })
  .openapi('FlowExecutionChain');

export const FlowExecutionCode = z
  .object({ code: z.string().openapi({ description: 'The code to run' }) })
  .openapi('FlowExecutionCode');

export const FlowExecution = z
  .object({
    type: ExecutionType,
    data: z
      .union([FlowExecutionChain, FlowExecutionCode])
      .nullable()
      .openapi({ description: 'The module or the code of the flow' }),
  })
  .openapi('FlowExecution');

const flowDataStoreFields = () =>
  z.object({
    id: optionalString().openapi({ description: 'Id of the datastore, once created' }),
    name: z.string().openapi({ description: 'Name of the datastore' }),
    status: DatastoreStatus.nullable().optional().openapi({ description: 'Default active' }),
    definition: DatastoreDef,
  });

const flowConfigFields = (datastore: z.ZodType) =>
  z.object({
    definitionFields: z.array(jsonObject()).nullable().optional().openapi({
      description:
        'The configuration a consumer gives when enabling the flow: objects with name, type (string, number, integer, boolean, date, datetime, array, object), optional, default',
    }),
    doorkeyFields: z
      .array(jsonObject())
      .nullable()
      .optional()
      .openapi({ description: 'Fields checked before a run' }),
    customFields: z
      .array(jsonObject())
      .nullable()
      .optional()
      .openapi({ description: 'Custom fields of the flow' }),
    datastores: z.array(datastore).nullable().optional().openapi({ description: 'Datastores the flow uses' }),
  });

export const FlowDataStoreItemInput = flowDataStoreFields().openapi('FlowDataStoreItem-Input');
export const FlowDataStoreItemOutput = flowDataStoreFields().openapi('FlowDataStoreItem-Output');
export const FlowConfigInput = flowConfigFields(FlowDataStoreItemInput).openapi('FlowConfig-Input');
export const FlowConfigOutput = flowConfigFields(FlowDataStoreItemOutput).openapi('FlowConfig-Output');

export const CreateFlowItem = z
  .object({
    name: z.string().openapi({ description: 'Name of the flow, unique in its sync' }),
    description: optionalString().openapi({ description: 'Description of the flow' }),
    execution: FlowExecution,
    config: FlowConfigInput.nullable().optional(),
    triggers: z.array(FlowTrigger).openapi({ description: 'How the flow is started' }),
  })
  .openapi('CreateFlowItem');

export const ReadFlowItem = z
  .object({
    name: z.string().openapi({ description: 'Name of the flow' }),
    description: optionalString().openapi({ description: 'Description of the flow' }),
    id: z.string().openapi({ description: 'Id of the flow (a uuid)' }),
    execution: FlowExecution.nullable().optional(),
    config: FlowConfigOutput.nullable().optional(),
    triggers: z.array(FlowTrigger).nullable().optional().openapi({ description: 'How the flow is started' }),
  })
  .openapi('ReadFlowItem');

// ---------------------------------------------------------------------------------------------
// Mappings.

export const FieldItemValue = z
  .object({
    id: z.string().openapi({ description: 'Id of the value' }),
    label: z.string().openapi({ description: 'Label of the value' }),
  })
  .openapi('FieldItemValue');

export const FieldItem = z
  .object({
    name: z.string().openapi({ description: 'Name of the field' }),
    type: FieldItemType,
    display_condition: jsonObject().nullable().optional().openapi({ description: 'When the field is shown' }),
    values: z
      .array(FieldItemValue)
      .nullable()
      .optional()
      .openapi({ description: 'The values of a fixed field' }),
    api_route: optionalString().openapi({ description: 'The route the values of an api field come from' }),
    connection_type: z
      .number()
      .int()
      .nullable()
      .optional()
      .openapi({ description: 'The connection of the sync the values come from' }),
  })
  .openapi('FieldItem');

const conditions = () =>
  z
    .partialRecord(z.literal('hideIf'), jsonObject())
    .nullable()
    .optional()
    .openapi({ description: 'Conditions under which the mapping is hidden (hideIf)' });

const mappingBase = () => ({
  name: z.string().openapi({ description: 'Name of the mapping' }),
  description: optionalString().openapi({ description: 'Description shown to the end user' }),
  display_order: z.number().int().optional().openapi({ description: 'Order on the page; default 0' }),
  challenge_question: optionalString().openapi({ description: 'A question that decides whether to ask it' }),
  conditions: conditions(),
});

const subMappingFields = () =>
  z.object({
    ...mappingBase(),
    source_field: FieldItem,
    target_field: FieldItem,
    display_delete: z
      .boolean()
      .optional()
      .openapi({ description: 'Whether a row may be deleted; default false' }),
    logic: jsonObject().nullable().optional().openapi({ description: 'Logic applied to the values' }),
    manual_mapping: z
      .boolean()
      .optional()
      .openapi({ description: 'Whether values are typed by hand; default false' }),
  });

export const CreateSyncMappingToFieldItemInput = subMappingFields().openapi(
  'CreateSyncMappingToFieldItem-Input',
);
export const CreateSyncMappingToFieldItemOutput = subMappingFields().openapi(
  'CreateSyncMappingToFieldItem-Output',
);

const mappingFields = (sub: z.ZodType) =>
  z.object({
    ...mappingBase(),
    sub_mappings: z.array(sub).optional().openapi({ description: 'The fields mapped; default none' }),
  });

export const CreateSyncMappingItemInput = mappingFields(CreateSyncMappingToFieldItemInput).openapi(
  'CreateSyncMappingItem-Input',
);
export const CreateSyncMappingItemOutput = mappingFields(CreateSyncMappingToFieldItemOutput).openapi(
  'CreateSyncMappingItem-Output',
);

export const ReadMappingItem = z
  .object({
    source_id: optionalString().openapi({ description: 'Id of the value in the source' }),
    target_id: optionalString().openapi({ description: 'Id of the value in the target' }),
  })
  .openapi('ReadMappingItem');

export const ReadSyncMappingItem = z
  .object({
    ...mappingBase(),
    values: z.array(ReadMappingItem).openapi({ description: 'The pairs the consumer mapped' }),
    hidden_source_ids: z.array(z.string()).openapi({ description: 'Source values hidden from the page' }),
    sub_mapping_name: z.string().openapi({ description: 'Name of the sub-mapping these values belong to' }),
    sub_mapping_description: optionalString().openapi({ description: 'Description of the sub-mapping' }),
  })
  .openapi('ReadSyncMappingItem');

export const ReadSyncSkipMappingItem = z
  .object({
    name: z.string().openapi({ description: 'Name of the mapping' }),
    skip_reason: SyncSkipReason,
  })
  .openapi('ReadSyncSkipMappingItem');

// ---------------------------------------------------------------------------------------------
// Syncs.

export const SyncsConnectionItem = z
  .object({
    one_api: z
      .number()
      .int()
      .nullable()
      .optional()
      .refine((code) => code === null || code === undefined || code in ONE_API_CODES, {
        message: `Unknown One API code (known: ${ONE_API_TABLE})`,
      })
      .openapi({ description: `The One API connected: ${ONE_API_TABLE}` }),
    connection_type: z
      .number()
      .int()
      .nullable()
      .optional()
      .openapi({ description: 'The role of this connection in the sync (e.g. 1 source, 2 target)' }),
    display_order: z.number().int().optional().openapi({ description: 'Order on the page; default 0' }),
    display_hidden: z.boolean().optional().openapi({ description: 'Whether it is hidden; default false' }),
  })
  .openapi('SyncsConnectionItem');

const syncConfig = () =>
  z
    .partialRecord(z.enum(['datalayer', 'presync']), z.unknown())
    .nullable()
    .optional()
    .openapi({ description: 'Settings of the sync: datalayer, presync' });

export const CreateSyncItem = z
  .object({
    name: z.string().min(1).openapi({ description: 'Name of the sync' }),
    config: syncConfig(),
    connections: z.array(SyncsConnectionItem).openapi({ description: 'The One APIs the sync connects' }),
    mappings: z
      .array(CreateSyncMappingItemInput)
      .optional()
      .openapi({ description: 'Mappings asked of consumers' }),
    flows: z.array(CreateFlowItem).optional().openapi({ description: 'The flows of the sync' }),
  })
  .openapi('CreateSyncItem');

export const ReadSyncItem = z
  .object({
    name: z.string().openapi({ minLength: 1, description: 'Name of the sync' }),
    config: syncConfig(),
    connections: z.array(SyncsConnectionItem).openapi({ description: 'The One APIs the sync connects' }),
    mappings: z
      .array(CreateSyncMappingItemOutput)
      .optional()
      .openapi({ description: 'Mappings asked of consumers' }),
    syncid: z.uuid().openapi({ description: 'Id of the sync' }),
    consumers: z.array(z.string()).openapi({ description: 'Consumers set up for the sync' }),
    flows: z.array(ReadFlowItem).openapi({ description: 'The flows of the sync' }),
  })
  .openapi('ReadSyncItem');

// ---------------------------------------------------------------------------------------------
// Consumer syncs.

export const CreateConsumerSyncItem = z
  .object({
    syncid: z.uuid().openapi({ description: 'The sync to set up' }),
    integrationids: z.array(z.string()).nullable().optional().openapi({
      description: 'At most one integrationid per One API of the sync: the only ones the page offers',
    }),
    country: optionalString().openapi({
      description:
        'ISO 3166-1 alpha-2 code: offer the integrations of this country (ignored with integrationids)',
    }),
    link_metadata: jsonObject().nullable().optional().openapi({ description: 'Metadata kept with the link' }),
  })
  .openapi('CreateConsumerSyncItem');

export const LinkSyncItem = z
  .object({ url: z.string().openapi({ description: 'The page where the end user sets the sync up' }) })
  .openapi('LinkSyncItem');

export const ReadFlowTrigger = z
  .object({
    id: z.string().openapi({ description: 'Id of the trigger' }),
    type: TriggerType,
    cronschedule: optionalString().openapi({ description: 'The schedule chosen for a timer trigger' }),
  })
  .openapi('ReadFlowTrigger');

export const ReadFlowConsumerItem = z
  .object({
    name: z.string().openapi({ description: 'Name of the flow' }),
    description: optionalString().openapi({ description: 'Description of the flow' }),
    id: z.string().openapi({ description: 'Id of the flow' }),
    config: FlowConfigOutput.nullable().optional(),
    values: jsonObject().openapi({ description: "The consumer's configuration of the flow" }),
    enabled_on: DATETIME.nullable().optional().openapi({ description: 'When the flow was enabled' }),
    trigger: ReadFlowTrigger,
  })
  .openapi('ReadFlowConsumerItem');

export const SyncConsumerItem = z
  .object({
    syncid: z.uuid().openapi({ description: 'Id of the sync' }),
    sync_name: z.string().openapi({ description: 'Name of the sync' }),
    status: SyncConsumerStatus.optional(),
    status_details: optionalString().openapi({ description: 'What is missing while the status is inactive' }),
    link_createdon: DATETIME.openapi({ description: 'When the consumer was first set up for the sync' }),
    link_mappings: z
      .array(ReadSyncMappingItem)
      .nullable()
      .optional()
      .openapi({ description: 'Its mappings' }),
    skip_mappings: z
      .array(ReadSyncSkipMappingItem)
      .nullable()
      .optional()
      .openapi({ description: 'Mappings not asked of this consumer' }),
    link_metadata: jsonObject()
      .nullable()
      .optional()
      .openapi({ description: 'Metadata given with the link' }),
    link_presync: jsonObject().nullable().optional().openapi({ description: 'Its presync values' }),
    enabled_flows: z
      .array(ReadFlowConsumerItem)
      .nullable()
      .optional()
      .openapi({ description: 'The flows enabled for the consumer' }),
  })
  .openapi('SyncConsumerItem');

export const EnableFlowConsumer = z
  .object({
    integrationids: z
      .array(z.string())
      .optional()
      .openapi({ description: 'Integrations of the connections the flow uses (of the sync selection)' }),
    triggerid: optionalString().openapi({
      description: 'The trigger to use; default trigger-1 (or the first one)',
    }),
    cronschedule: CronExpression.nullable()
      .optional()
      .openapi({ description: "Timer trigger: one of the trigger's schedules; default its first" }),
    data: jsonObject()
      .nullable()
      .optional()
      .openapi({ description: "The consumer's configuration of the flow" }),
  })
  .openapi('EnableFlowConsumer');

export const UpdateFlowConsumer = z
  .object({
    triggerid: optionalString().openapi({ description: 'Another trigger of the flow; absent: unchanged' }),
    data: jsonObject().nullable().optional().openapi({ description: 'Merged into the configuration' }),
  })
  .openapi('UpdateFlowConsumer');

// ---------------------------------------------------------------------------------------------
// Events and executions.

export const PostSyncFlowEventData = z
  .looseObject({
    is_preview: z.boolean().optional().openapi({ description: 'A preview run; default false' }),
    force_restart: z
      .boolean()
      .optional()
      .openapi({ description: 'Restart from the dates given; default false' }),
    start_date: z.iso.date().nullable().optional().openapi({ description: 'Start of the period' }),
    end_date: z.iso.date().nullable().optional().openapi({ description: 'End of the period' }),
    force_from_date: z.iso.date().nullable().optional().openapi({ description: 'Sync from this date' }),
    import_mode: ImportMode.nullable().optional(),
  })
  .openapi('PostSyncFlowEventData');

export const PostSyncFlowEvent = z
  .object({
    consumers: z
      .array(z.string())
      .optional()
      .openapi({ description: 'Consumers to run the flow for; default every consumer that enabled it' }),
    data: PostSyncFlowEventData.optional(),
  })
  .openapi('PostSyncFlowEvent');

export const TriggerResponse = z
  .object({
    status: z.string().openapi({ description: 'success' }),
    message: z.string().openapi({ description: 'What was triggered' }),
    data: jsonObject().nullable().optional().openapi({ description: 'The ids of the executions queued' }),
  })
  .openapi('TriggerResponse');

const executionFields = z.object({
  id: z.string().openapi({ description: 'Id of the execution' }),
  parentexecutionid: z
    .string()
    .nullable()
    .openapi({ description: 'The chain execution grouping the runs of one trigger across consumers' }),
  start: DATETIME.openapi({ description: 'When it starts (queued) or started' }),
  end: DATETIME.nullable().openapi({ description: 'When it ended; null until then' }),
  status: z.string().openapi({ description: 'queued, running, success or error' }),
});

export const ChainExecutionItem = executionFields.openapi('ChainExecutionItem');

export const SyncExecutionItem = executionFields
  .extend({
    consumer_id: z.string().openapi({ description: 'The consumer it ran for' }),
    flow_id: z.string().openapi({ description: 'The flow it ran' }),
  })
  .openapi('SyncExecutionItem');

export const ServicePageSyncExecutionItem = z
  .object({
    items: z.array(SyncExecutionItem),
    total: z.number().int().min(0).openapi({ description: 'Executions matching, all pages' }),
    page: z.number().int().min(1).openapi({ description: 'This page' }),
    size: z.number().int().min(1).openapi({ description: 'Page size asked' }),
  })
  .openapi('ServicePage_SyncExecutionItem_');

/** What the official SDK posts to report a flow it runs on the vendor side (START, then END). */
export const LocalFlowRun = z
  .object({
    type: z.enum(['START', 'END']).openapi({ description: 'START opens the executions, END closes them' }),
    executionid: optionalString().openapi({ description: 'END: an execution of the run' }),
    chainexecutionid: optionalString().openapi({ description: 'END: the chain execution of the run' }),
    error: z.boolean().nullable().optional().openapi({ description: 'END: whether the run failed' }),
    error_message: optionalString().openapi({ description: 'END: what failed' }),
    technical_error_message: optionalString().openapi({ description: 'END: the technical error' }),
  })
  .openapi('LocalFlowRun');

export const EmptyObject = z.object({}).openapi({ description: 'An empty object' });

// ---------------------------------------------------------------------------------------------
// Parameters.

const pathString = (name: string, description: string) =>
  z.string().openapi({ param: { name, in: 'path' }, description });
const pathUuid = (name: string, description: string) =>
  z.uuid().openapi({ param: { name, in: 'path' }, description });

export const SyncIdParam = z.object({ syncid: pathString('syncid', 'Id of the sync') });
export const SyncUuidParam = z.object({ syncid: pathUuid('syncid', 'Id of the sync') });
export const FlowEventParams = z.object({
  syncid: pathString('syncid', 'Id of the sync'),
  flowid: pathString('flowid', 'Id of the flow'),
});
export const ExecutionParams = FlowEventParams.extend({
  executionid: pathString('executionid', 'Id of the execution or of its chain execution'),
});
export const ConsumerSyncParams = z.object({
  consumer_id: pathUuid('consumer_id', 'Id of the consumer'),
  syncid: pathUuid('syncid', 'Id of the sync'),
});
export const ConsumerFlowParams = ConsumerSyncParams.extend({ flowid: pathUuid('flowid', 'Id of the flow') });

const dateQuery = (name: string, description: string) =>
  DATETIME.optional().openapi({ param: { name, in: 'query' }, description });

export const ExecutionQuery = z.object({
  consumerid: z
    .string()
    .optional()
    .openapi({
      param: { name: 'consumerid', in: 'query' },
      description: 'The consumer of a chain execution',
    }),
});

export const DateRangeQuery = z.object({
  date_from: dateQuery('date_from', 'Executions that start at or after this time'),
  date_to: dateQuery('date_to', 'Executions that start at or before this time'),
});

export const SyncExecutionsQuery = DateRangeQuery.extend({
  flowid: z
    .uuid()
    .optional()
    .openapi({ param: { name: 'flowid', in: 'query' }, description: 'Only the executions of this flow' }),
  page: z.coerce
    .number()
    .int()
    .min(1)
    .default(1)
    .openapi({ param: { name: 'page', in: 'query' }, type: 'integer', description: 'Page number, from 1' }),
  size: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(50)
    .openapi({ param: { name: 'size', in: 'query' }, type: 'integer', description: 'Page size, 1 to 500' }),
});

export const ConsumerSyncQuery = z.object({
  preview_executionid: z
    .uuid()
    .optional()
    .openapi({
      param: { name: 'preview_executionid', in: 'query' },
      description: 'A preview execution of it',
    }),
});

export type CreateSyncInput = z.infer<typeof CreateSyncItem>;
export type CreateFlowInput = z.infer<typeof CreateFlowItem>;
export type FlowTriggerInput = z.infer<typeof FlowTrigger>;
export type ReadSyncOut = z.infer<typeof ReadSyncItem>;
export type ReadFlowOut = z.infer<typeof ReadFlowItem>;
export type SyncConsumerOut = z.infer<typeof SyncConsumerItem>;
export type EnableFlowInput = z.infer<typeof EnableFlowConsumer>;
export type UpdateFlowInput = z.infer<typeof UpdateFlowConsumer>;
export type CreateConsumerSyncInput = z.infer<typeof CreateConsumerSyncItem>;
export type PostSyncFlowEventInput = z.infer<typeof PostSyncFlowEvent>;
export type ChainExecutionOut = z.infer<typeof ChainExecutionItem>;
export type SyncExecutionOut = z.infer<typeof SyncExecutionItem>;
export type LocalFlowRunInput = z.infer<typeof LocalFlowRun>;
export type ReadSyncMappingInput = z.infer<typeof ReadSyncMappingItem>;
