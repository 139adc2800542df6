import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonContent, secured } from '../../platform/openapi.js';
import {
  DataItem,
  DataItemOut,
  DataStoreItem,
  DatastoreDataParams,
  DatastoreDataQuery,
  DatastoreRowParams,
  DatastoresQuery,
} from './datastores.schemas.js';

const tags = ['Datastores'];

export const listDatastores = createRoute({
  method: 'get',
  path: '/datastores',
  operationId: 'datastores_get_datastores',
  tags,
  summary: "List the account's datastores (active and inactive)",
  ...secured('account'),
  request: { query: DatastoresQuery },
  responses: {
    200: jsonContent(z.array(DataStoreItem), 'The datastores'),
    ...errorResponses([401, 422]),
  },
});

export const listData = createRoute({
  method: 'get',
  path: '/consumers/{consumer_id}/datastore/{datastoreid}/data',
  operationId: 'datastores_get_consumer_and_datastoredata',
  tags,
  summary: "List a consumer's rows of a datastore, oldest first",
  ...secured('consumer'),
  request: { params: DatastoreDataParams, query: DatastoreDataQuery },
  responses: {
    200: jsonContent(z.array(DataItemOut), 'The rows that match the filters'),
    ...errorResponses([401, 404, 422]),
  },
});

export const createData = createRoute({
  method: 'post',
  path: '/consumers/{consumer_id}/datastore/{datastoreid}/data',
  operationId: 'datastores_create_consumer_datastoredata',
  tags,
  summary: 'Add rows to a datastore for a consumer (all or none)',
  ...secured('consumer'),
  request: {
    params: DatastoreDataParams,
    body: jsonBody(z.array(DataItem), 'The rows to add, each matching the definition'),
  },
  responses: {
    200: jsonContent(z.array(DataItemOut), 'The added rows'),
    ...errorResponses([401, 404, 422], { serviceError422: true }),
  },
});

export const updateData = createRoute({
  method: 'patch',
  path: '/consumers/{consumer_id}/datastore/{datastoreid}/data/{datastoredataid}',
  operationId: 'datastores_update_consumer_datastoredata',
  tags,
  summary: 'Change columns of one row of a datastore',
  ...secured('consumer'),
  request: { params: DatastoreRowParams, body: jsonBody(DataItem, 'The columns to change') },
  responses: {
    200: jsonContent(DataItemOut, 'The changed row'),
    ...errorResponses([401, 404, 422], { serviceError422: true }),
  },
});

export const deleteData = createRoute({
  method: 'delete',
  path: '/consumers/{consumer_id}/datastore/{datastoreid}/data/{datastoredataid}',
  operationId: 'datastores_delete_consumer_datastoredata',
  tags,
  summary: 'Delete one row of a datastore',
  ...secured('consumer'),
  request: { params: DatastoreRowParams },
  responses: {
    200: jsonContent(z.object({}), 'The row was deleted (an empty object)'),
    ...errorResponses([401, 404, 422]),
  },
});
