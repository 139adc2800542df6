import { createRoute, z } from '@hono/zod-openapi';
import { clientRoute } from '../../lib/client-routes.js';
import {
  ConsumerIdParam,
  emptyResponse,
  errorResponses,
  jsonBody,
  jsonContent,
  secured,
} from '../../platform/openapi.js';
import {
  ChainExecutionItem,
  ConsumerFlowParams,
  ConsumerSyncParams,
  ConsumerSyncQuery,
  CreateConsumerSyncItem,
  CreateFlowItem,
  CreateSyncItem,
  DateRangeQuery,
  EmptyObject,
  EnableFlowConsumer,
  ExecutionParams,
  ExecutionQuery,
  FlowEventParams,
  LinkSyncItem,
  LocalFlowRun,
  PostSyncFlowEvent,
  ReadFlowItem,
  ReadSyncItem,
  ReadSyncMappingItem,
  ServicePageSyncExecutionItem,
  SyncConsumerItem,
  SyncExecutionsQuery,
  SyncIdParam,
  SyncUuidParam,
  TriggerResponse,
  UpdateFlowConsumer,
} from './syncs.schemas.js';

const tags = ['Syncs'];
const consumerTags = ['Consumers'];

export const listSyncs = createRoute({
  method: 'get',
  path: '/syncs',
  operationId: 'syncs_get_syncs',
  tags,
  summary: 'List the syncs of the environment',
  ...secured('account'),
  responses: {
    200: jsonContent(z.array(ReadSyncItem), 'The syncs, with their flows'),
    ...errorResponses([401]),
  },
});

export const createSync = createRoute({
  method: 'post',
  path: '/syncs',
  operationId: 'syncs_post_sync',
  tags,
  summary: 'Create a sync with its flows',
  ...secured('account-wide'),
  request: { body: jsonBody(CreateSyncItem, 'The sync') },
  responses: {
    200: jsonContent(ReadSyncItem, 'The created sync'),
    ...errorResponses([401, 422]),
  },
});

export const getSync = createRoute({
  method: 'get',
  path: '/syncs/{syncid}',
  operationId: 'syncs_get_sync',
  tags,
  summary: 'Get one sync',
  ...secured('account'),
  request: { params: SyncIdParam },
  responses: {
    200: jsonContent(ReadSyncItem, 'The sync'),
    ...errorResponses([401, 404, 422]),
  },
});

export const createFlow = createRoute({
  method: 'post',
  path: '/syncs/{syncid}/flows',
  operationId: 'syncs_create_flow',
  tags,
  summary: 'Add a flow to a sync, or update the flow of the same name (used by the official SDK)',
  ...clientRoute('The official clients post the definition of a flow before each run of it.'),
  ...secured('account-wide'),
  request: { params: SyncIdParam, body: jsonBody(CreateFlowItem, 'The flow') },
  responses: {
    200: jsonContent(ReadFlowItem, 'The flow'),
    ...errorResponses([401, 404, 422]),
  },
});

export const sendCustomEvent = createRoute({
  method: 'post',
  path: '/syncs/{syncid}/flows/{flowid}/event',
  operationId: 'syncs_send_custom_event',
  tags,
  summary: 'Send an event that runs a flow for its consumers',
  ...secured('account'),
  request: {
    params: FlowEventParams,
    body: jsonBody(PostSyncFlowEvent, 'The consumers and the data of the event'),
  },
  responses: {
    200: jsonContent(TriggerResponse, 'The executions queued'),
    ...errorResponses([400, 401, 404, 422], { serviceError422: true }),
  },
});

export const reportLocalRun = createRoute({
  method: 'post',
  path: '/syncs/{syncid}/flows/{flowid}/local',
  operationId: 'syncs_report_local_run',
  tags,
  summary:
    'Open (START) or close (END) the executions of a flow run by the vendor (used by the official SDK)',
  ...clientRoute('The official clients report the runs of a flow they run themselves.'),
  ...secured('account'),
  request: { params: FlowEventParams, body: jsonBody(LocalFlowRun, 'START, or END with the outcome') },
  responses: {
    200: jsonContent(TriggerResponse, 'The executions opened or closed'),
    ...errorResponses([400, 401, 404, 422]),
  },
});

export const listSyncExecutions = createRoute({
  method: 'get',
  path: '/syncs/{syncid}/executions',
  operationId: 'syncs_get_sync_executions',
  tags,
  summary: 'List the executions of a sync, newest first, by pages',
  ...secured('account'),
  request: { params: SyncUuidParam, query: SyncExecutionsQuery },
  responses: {
    200: jsonContent(ServicePageSyncExecutionItem, 'A page of executions'),
    ...errorResponses([401, 404, 422]),
  },
});

export const getExecution = createRoute({
  method: 'get',
  path: '/syncs/{syncid}/flows/{flowid}/executions/{executionid}',
  operationId: 'syncs_get_execution',
  tags,
  summary: 'Get one execution (or chain execution) with its start and end',
  ...secured('account'),
  request: { params: ExecutionParams, query: ExecutionQuery },
  responses: {
    200: jsonContent(ChainExecutionItem, 'The execution'),
    ...errorResponses([401, 404, 422]),
  },
});

export const listConsumerExecutions = createRoute({
  method: 'get',
  path: '/consumers/{consumer_id}/syncs/{syncid}/flows/{flowid}/executions',
  operationId: 'syncs_get_consumer_executions',
  tags: consumerTags,
  summary: "List the executions of a consumer's flow, newest first",
  ...secured('consumer'),
  request: { params: ConsumerFlowParams, query: DateRangeQuery },
  responses: {
    200: jsonContent(z.array(ChainExecutionItem), 'The executions'),
    ...errorResponses([401, 404, 422]),
  },
});

export const createConsumerSync = createRoute({
  method: 'post',
  path: '/consumers/{consumer_id}/syncs',
  operationId: 'syncs_create_synctoconsumer',
  tags: consumerTags,
  summary: 'Get the link where a consumer sets up a sync',
  ...secured('consumer'),
  request: { params: ConsumerIdParam, body: jsonBody(CreateConsumerSyncItem, 'The sync and its options') },
  responses: {
    200: jsonContent(LinkSyncItem, 'The link'),
    ...errorResponses([400, 401, 404, 422]),
  },
});

export const getConsumerSync = createRoute({
  method: 'get',
  path: '/consumers/{consumer_id}/syncs/{syncid}',
  operationId: 'syncs_get_syncconsumer',
  tags: consumerTags,
  summary: "Get a consumer's setup of a sync: status, mappings, enabled flows",
  ...secured('consumer'),
  request: { params: ConsumerSyncParams, query: ConsumerSyncQuery },
  responses: {
    200: jsonContent(SyncConsumerItem, 'The setup'),
    ...errorResponses([401, 404, 422]),
  },
});

export const updateConsumerSync = createRoute({
  method: 'patch',
  path: '/consumers/{consumer_id}/syncs/{syncid}',
  operationId: 'syncs_update_synctoconsumer',
  tags,
  summary: "Replace a consumer's mappings of a sync",
  ...secured('consumer'),
  request: {
    params: ConsumerSyncParams,
    body: jsonBody(z.array(ReadSyncMappingItem), 'The new mappings (a list), replacing the current ones'),
  },
  responses: {
    204: emptyResponse('The mappings were replaced'),
    ...errorResponses([401, 404, 422], { serviceError422: true }),
  },
});

export const enableFlow = createRoute({
  method: 'post',
  path: '/consumers/{consumer_id}/syncs/{syncid}/flows/{flowid}/enable',
  operationId: 'syncs_enable_syncconsumer',
  tags,
  summary: 'Enable a flow for a consumer, with its configuration',
  ...secured('consumer'),
  request: {
    params: ConsumerFlowParams,
    body: jsonBody(EnableFlowConsumer, 'Trigger, schedule and configuration'),
  },
  responses: {
    200: jsonContent(EmptyObject, 'The flow is enabled'),
    ...errorResponses([400, 401, 404, 422], { serviceError422: true }),
  },
});

export const disableFlow = createRoute({
  method: 'post',
  path: '/consumers/{consumer_id}/syncs/{syncid}/flows/{flowid}/disable',
  operationId: 'syncs_disable_syncconsumer',
  tags,
  summary: 'Disable a flow for a consumer',
  ...secured('consumer'),
  request: { params: ConsumerFlowParams },
  responses: {
    200: jsonContent(EmptyObject, 'The flow is disabled'),
    ...errorResponses([401, 404, 422]),
  },
});

export const updateFlowConfig = createRoute({
  method: 'patch',
  path: '/consumers/{consumer_id}/syncs/{syncid}/flows/{flowid}',
  operationId: 'syncs_update_flowtoconsumer',
  tags,
  summary: "Merge new values into a consumer's configuration of a flow",
  ...secured('consumer'),
  request: {
    params: ConsumerFlowParams,
    body: jsonBody(UpdateFlowConsumer, 'Values to merge, and the trigger'),
  },
  responses: {
    204: emptyResponse('The configuration was updated'),
    ...errorResponses([401, 404, 422], { serviceError422: true }),
  },
});
