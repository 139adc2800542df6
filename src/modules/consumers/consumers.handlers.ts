import type { RouteHandler } from '@hono/zod-openapi';
import { requireConsumer } from '../../platform/access.js';
import type { AppEnv } from '../../platform/context.js';
import { connectionsOfConsumer, consumerTextChanged } from '../../store/indexes.js';
import { connectionEvent, publishEvent } from '../webhooks/index.js';
import { searchConsumers } from './consumer-search.js';
import { createConsumer, deleteConsumer, toConsumerItem, updateConsumer } from './consumers.domain.js';
import type * as routes from './consumers.routes.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

export const listConsumers: Handler<'listConsumers'> = (c) => {
  const filters = c.req.valid('query');
  const items = searchConsumers(c.get('store').world, c.get('principal'), filters).map(toConsumerItem);
  return c.json(items, 200);
};

export const createConsumerHandler: Handler<'createConsumer'> = async (c) => {
  const store = c.get('store');
  const ids = c.get('ids');
  const clock = c.get('clock');
  const principal = c.get('principal');
  const consumer = createConsumer(store.world, { ids, clock }, principal, c.req.valid('json'));
  return c.json(toConsumerItem(consumer), 200);
};

export const getConsumer: Handler<'getConsumer'> = (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const consumer = requireConsumer(store.world, principal, c.req.valid('param').consumer_id);
  return c.json(toConsumerItem(consumer), 200);
};

export const updateConsumerHandler: Handler<'updateConsumer'> = async (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const consumer = requireConsumer(store.world, principal, c.req.valid('param').consumer_id);
  updateConsumer(consumer, c.req.valid('json'));
  consumerTextChanged(store.world, consumer);
  return c.json(toConsumerItem(consumer), 200);
};

export const deleteConsumerHandler: Handler<'deleteConsumer'> = async (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const consumer = requireConsumer(store.world, principal, c.req.valid('param').consumer_id);
  // Its connections go with it: subscribers hear of each, as for a deleted connection.
  for (const connection of connectionsOfConsumer(store.world, consumer.consumerid)) {
    publishEvent(c.var, connectionEvent('deleted', consumer, connection));
  }
  deleteConsumer(store, consumer);
  return c.body(null, 204);
};
