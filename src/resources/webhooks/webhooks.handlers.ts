import type { RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../context.js';
import {
  createWebhook,
  deleteWebhook,
  listWebhooks,
  logsOf,
  requireWebhook,
  toWebhookInstance,
  toWebhookItem,
  toWebhookLog,
  updateWebhook,
  webhookTypes,
} from './webhooks.domain.js';
import type * as routes from './webhooks.routes.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

export const listWebhookTypesHandler: Handler<'listWebhookTypes'> = (c) =>
  c.json(webhookTypes().map(toWebhookItem), 200);

export const createWebhookHandler: Handler<'createWebhook'> = async (c) => {
  const { store, ids, clock, catalogue, principal } = c.var;
  const record = createWebhook(
    store.world,
    { ids, clock, catalogue, types: webhookTypes() },
    principal,
    c.req.valid('json'),
  );
  c.set('createdEntityId', record.webhookid);
  await store.commit();
  return c.json(toWebhookInstance(record), 200);
};

export const listWebhooksHandler: Handler<'listWebhooks'> = (c) => {
  const { status } = c.req.valid('query');
  const records = listWebhooks(c.var.store.world, c.var.principal, status);
  return c.json(records.map(toWebhookInstance), 200);
};

export const getWebhookHandler: Handler<'getWebhook'> = (c) => {
  const record = requireWebhook(c.var.store.world, c.var.principal, c.req.valid('param').webhookid);
  return c.json(toWebhookInstance(record), 200);
};

export const updateWebhookHandler: Handler<'updateWebhook'> = async (c) => {
  const { store, principal } = c.var;
  const record = requireWebhook(store.world, principal, c.req.valid('param').webhookid);
  updateWebhook(store.world, record, c.req.valid('json'));
  await store.commit();
  return c.json(toWebhookInstance(record), 200);
};

export const deleteWebhookHandler: Handler<'deleteWebhook'> = async (c) => {
  const { store, principal } = c.var;
  const record = requireWebhook(store.world, principal, c.req.valid('param').webhookid);
  deleteWebhook(store.world, record);
  await store.commit();
  return c.body(null, 204);
};

export const listWebhookLogsHandler: Handler<'listWebhookLogs'> = (c) => {
  const { store, principal } = c.var;
  const record = requireWebhook(store.world, principal, c.req.valid('param').webhookid);
  return c.json(logsOf(store.world, record.webhookid).map(toWebhookLog), 200);
};
