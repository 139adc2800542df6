import type { RouteHandler } from '@hono/zod-openapi';
import { requireConsumer } from '../../platform/access.js';
import type { AppEnv } from '../../platform/context.js';
import {
  createRows,
  deleteRow,
  listDatastores,
  listRows,
  RELATED_EXECUTION_HEADER,
  relatedExecutionId,
  requireDatastore,
  requireRow,
  toDataItemOut,
  toDataStoreItem,
  updateRow,
} from './datastores.domain.js';
import type * as routes from './datastores.routes.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

export const listDatastoresHandler: Handler<'listDatastores'> = (c) => {
  const records = listDatastores(c.get('store').world, c.get('principal'), c.req.valid('query').status);
  return c.json(records.map(toDataStoreItem), 200);
};

export const listDataHandler: Handler<'listData'> = (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const { consumer_id, datastoreid } = c.req.valid('param');
  const consumer = requireConsumer(store.world, principal, consumer_id);
  const datastore = requireDatastore(store.world, principal, datastoreid);
  const rows = listRows(store.world, consumer, datastore, c.req.valid('query'));
  return c.json(rows.map(toDataItemOut), 200);
};

export const createDataHandler: Handler<'createData'> = async (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const ids = c.get('ids');
  const clock = c.get('clock');
  const { consumer_id, datastoreid } = c.req.valid('param');
  const consumer = requireConsumer(store.world, principal, consumer_id);
  const datastore = requireDatastore(store.world, principal, datastoreid);
  const executionid = relatedExecutionId(c.req.header(RELATED_EXECUTION_HEADER));
  const rows = createRows(store.world, { ids, clock }, consumer, datastore, c.req.valid('json'), executionid);
  if (rows.length === 1) c.set('createdEntityId', rows[0]?.datastoredataid);
  return c.json(rows.map(toDataItemOut), 200);
};

export const updateDataHandler: Handler<'updateData'> = async (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const clock = c.get('clock');
  const { consumer_id, datastoreid, datastoredataid } = c.req.valid('param');
  const consumer = requireConsumer(store.world, principal, consumer_id);
  const datastore = requireDatastore(store.world, principal, datastoreid);
  const row = requireRow(store.world, consumer, datastore, datastoredataid);
  updateRow(row, datastore, c.req.valid('json'), clock);
  return c.json(toDataItemOut(row), 200);
};

export const deleteDataHandler: Handler<'deleteData'> = async (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const { consumer_id, datastoreid, datastoredataid } = c.req.valid('param');
  const consumer = requireConsumer(store.world, principal, consumer_id);
  const datastore = requireDatastore(store.world, principal, datastoreid);
  deleteRow(store.world, requireRow(store.world, consumer, datastore, datastoredataid));
  return c.json({}, 200);
};
