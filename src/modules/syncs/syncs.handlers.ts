import type { RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { errors } from '../../lib/errors.js';
import { own } from '../../lib/own.js';
import { requireConsumer } from '../../platform/access.js';
import type { AppEnv } from '../../platform/context.js';
import { requestServices } from '../../platform/request-context.js';
import { publicOrigin } from '../../platform/urls.js';
import type { ConsumerRecord, FlowRecord } from '../../store/world.js';
import { publishEvent } from '../webhooks/index.js';
import {
  findExecution,
  listConsumerExecutions,
  listSyncExecutions,
  reportLocalRun,
  sendCustomEvent,
} from './executions.domain.js';
import {
  createConsumerSyncLink,
  createSync,
  disableFlow,
  enableFlow,
  replaceMappings,
  requireConsumerSync,
  requireFlow,
  requireSync,
  syncsOf,
  toReadFlowItem,
  toReadSyncItem,
  toSyncConsumerItem,
  updateFlowConfig,
  upsertFlow,
} from './syncs.domain.js';
import type * as routes from './syncs.routes.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

function publishFlowEvent(
  c: Context<AppEnv>,
  event: 'account.flow.enabled' | 'account.flow.disabled',
  consumer: ConsumerRecord,
  flow: FlowRecord,
): number {
  return publishEvent(c.var, {
    accountid: consumer.accountid,
    envid: consumer.envid,
    event,
    consumerid: consumer.consumerid,
    fields: { syncid: flow.syncid, flowid: flow.flowid },
  });
}

/** The consumer, the sync and the flow of a consumer-scoped flow route, each 404 in that order. */
function consumerFlow(c: Context<AppEnv>, params: { consumer_id: string; syncid: string; flowid: string }) {
  const world = c.get('store').world;
  const consumer = requireConsumer(world, c.get('principal'), params.consumer_id);
  const sync = requireSync(world, c.get('principal'), params.syncid);
  const flow = requireFlow(world, sync, params.flowid);
  return { consumer, sync, flow };
}

export const listSyncsHandler: Handler<'listSyncs'> = (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  return c.json(
    syncsOf(store.world, principal).map((sync) => toReadSyncItem(store.world, principal, sync)),
    200,
  );
};

export const createSyncHandler: Handler<'createSync'> = async (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const sync = createSync(store.world, requestServices(c), principal, c.req.valid('json'));
  return c.json(toReadSyncItem(store.world, principal, sync), 200);
};

export const getSyncHandler: Handler<'getSync'> = (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const sync = requireSync(store.world, principal, c.req.valid('param').syncid);
  return c.json(toReadSyncItem(store.world, principal, sync), 200);
};

export const createFlowHandler: Handler<'createFlow'> = async (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const sync = requireSync(store.world, principal, c.req.valid('param').syncid);
  const flow = upsertFlow(store.world, requestServices(c), sync, c.req.valid('json'));
  return c.json(toReadFlowItem(flow), 200);
};

export const sendCustomEventHandler: Handler<'sendCustomEvent'> = async (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const { syncid, flowid } = c.req.valid('param');
  const sync = requireSync(store.world, principal, syncid);
  const flow = requireFlow(store.world, sync, flowid, errors.chainNotFound);
  const answer = sendCustomEvent(requestServices(c), principal, sync, flow, c.req.valid('json'));
  return c.json(answer, 200);
};

export const reportLocalRunHandler: Handler<'reportLocalRun'> = async (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const { syncid, flowid } = c.req.valid('param');
  const sync = requireSync(store.world, principal, syncid);
  const flow = requireFlow(store.world, sync, flowid, errors.chainNotFound);
  const { published: _published, ...answer } = reportLocalRun(
    requestServices(c),
    principal,
    sync,
    flow,
    c.req.valid('json'),
  );
  return c.json(answer, 200);
};

export const listSyncExecutionsHandler: Handler<'listSyncExecutions'> = (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const clock = c.get('clock');
  const sync = requireSync(store.world, principal, c.req.valid('param').syncid);
  return c.json(listSyncExecutions(store.world, principal, sync, c.req.valid('query'), clock.now()), 200);
};

export const getExecutionHandler: Handler<'getExecution'> = (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const clock = c.get('clock');
  const { syncid, flowid, executionid } = c.req.valid('param');
  const sync = requireSync(store.world, principal, syncid);
  const flow = requireFlow(store.world, sync, flowid);
  const { consumerid } = c.req.valid('query');
  return c.json(findExecution(store.world, principal, flow, executionid, consumerid, clock.now()), 200);
};

export const listConsumerExecutionsHandler: Handler<'listConsumerExecutions'> = (c) => {
  const { consumer, flow } = consumerFlow(c, c.req.valid('param'));
  const items = listConsumerExecutions(
    c.get('store').world,
    consumer.consumerid,
    flow,
    c.req.valid('query'),
    c.get('clock').now(),
  );
  return c.json(items, 200);
};

export const createConsumerSyncHandler: Handler<'createConsumerSync'> = async (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const consumer = requireConsumer(store.world, principal, c.req.valid('param').consumer_id);
  const input = c.req.valid('json');
  const sync = requireSync(store.world, principal, input.syncid);
  const link = createConsumerSyncLink(store.world, requestServices(c), consumer, sync, input);
  return c.json({ url: `${publicOrigin(c.get('config'), c.req.url)}/link/${link.linkid}` }, 200);
};

export const getConsumerSyncHandler: Handler<'getConsumerSync'> = (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const catalogue = c.get('catalogue');
  const { consumer_id, syncid } = c.req.valid('param');
  const consumer = requireConsumer(store.world, principal, consumer_id);
  const sync = requireSync(store.world, principal, syncid);
  const record = requireConsumerSync(store.world, consumer.consumerid, sync);
  const { preview_executionid } = c.req.valid('query');
  if (preview_executionid !== undefined) {
    const preview = own(store.world.executions, preview_executionid.toLowerCase());
    if (preview?.consumerid !== consumer.consumerid || preview.syncid !== sync.syncid) {
      throw errors.executionNotFound();
    }
  }
  return c.json(toSyncConsumerItem(store.world, catalogue, sync, record), 200);
};

export const updateConsumerSyncHandler: Handler<'updateConsumerSync'> = async (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const { consumer_id, syncid } = c.req.valid('param');
  const consumer = requireConsumer(store.world, principal, consumer_id);
  const sync = requireSync(store.world, principal, syncid);
  replaceMappings(store.world, consumer, sync, c.req.valid('json'));
  return c.body(null, 204);
};

export const enableFlowHandler: Handler<'enableFlow'> = async (c) => {
  const { consumer, sync, flow } = consumerFlow(c, c.req.valid('param'));
  const { newlyEnabled } = enableFlow(
    c.get('store').world,
    requestServices(c),
    consumer,
    sync,
    flow,
    c.req.valid('json'),
  );
  if (newlyEnabled) publishFlowEvent(c, 'account.flow.enabled', consumer, flow);
  return c.json({}, 200);
};

export const disableFlowHandler: Handler<'disableFlow'> = async (c) => {
  const { consumer, flow } = consumerFlow(c, c.req.valid('param'));
  const wasEnabled = disableFlow(c.get('store').world, requestServices(c), consumer, flow);
  if (wasEnabled) publishFlowEvent(c, 'account.flow.disabled', consumer, flow);
  return c.json({}, 200);
};

export const updateFlowConfigHandler: Handler<'updateFlowConfig'> = async (c) => {
  const { consumer, flow } = consumerFlow(c, c.req.valid('param'));
  updateFlowConfig(c.get('store').world, requestServices(c), consumer, flow, c.req.valid('json'));
  return c.body(null, 204);
};
