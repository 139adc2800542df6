import type { RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../platform/context.js';
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

/**
 * The sandbox itself, as a url may name it: where it listens, its public url, its allowed names, and
 * the origin this request came through (which covers an app served by other means).
 */
const ownEndpoints = (c: Context<AppEnv>) => c.get('self').endpoints(new URL(c.req.url).origin);

export const listWebhookTypesHandler: Handler<'listWebhookTypes'> = (c) =>
  c.json(webhookTypes().map(toWebhookItem), 200);

export const createWebhookHandler: Handler<'createWebhook'> = async (c) => {
  const store = c.get('store');
  const ids = c.get('ids');
  const clock = c.get('clock');
  const catalogue = c.get('catalogue');
  const principal = c.get('principal');
  const record = createWebhook(
    store.world,
    { ids, clock, catalogue, types: webhookTypes(), own: ownEndpoints(c) },
    principal,
    c.req.valid('json'),
  );
  c.set('createdEntityId', record.webhookid);
  return c.json(toWebhookInstance(record), 200);
};

export const listWebhooksHandler: Handler<'listWebhooks'> = (c) => {
  const { status } = c.req.valid('query');
  const records = listWebhooks(c.get('store').world, c.get('principal'), status);
  return c.json(records.map(toWebhookInstance), 200);
};

export const getWebhookHandler: Handler<'getWebhook'> = (c) => {
  const record = requireWebhook(c.get('store').world, c.get('principal'), c.req.valid('param').webhookid);
  return c.json(toWebhookInstance(record), 200);
};

export const updateWebhookHandler: Handler<'updateWebhook'> = async (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const record = requireWebhook(store.world, principal, c.req.valid('param').webhookid);
  updateWebhook(store.world, principal, record, c.req.valid('json'), ownEndpoints(c));
  return c.json(toWebhookInstance(record), 200);
};

export const deleteWebhookHandler: Handler<'deleteWebhook'> = async (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const record = requireWebhook(store.world, principal, c.req.valid('param').webhookid);
  deleteWebhook(store.world, record);
  return c.body(null, 204);
};

export const listWebhookLogsHandler: Handler<'listWebhookLogs'> = (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const record = requireWebhook(store.world, principal, c.req.valid('param').webhookid);
  return c.json(logsOf(store.world, record.webhookid).map(toWebhookLog), 200);
};
