import { createRoute, z } from '@hono/zod-openapi';
import {
  emptyResponse,
  errorResponses,
  jsonBody,
  jsonContent,
  scopesFor,
  secured,
} from '../../platform/openapi.js';
import {
  ConsumerIdParam,
  ConsumerItem,
  ConsumersQuery,
  PostConsumerItem,
  UpdateConsumerItem,
} from './consumers.schemas.js';

const tags = ['Consumers'];

export const listConsumers = createRoute({
  method: 'get',
  path: '/consumers',
  operationId: 'consumers_get_consumers',
  tags,
  summary: 'List the consumers of the environment',
  ...secured('account', scopesFor('consumers', null, 'read')),
  request: { query: ConsumersQuery },
  responses: {
    200: jsonContent(z.array(ConsumerItem), 'The consumers that match the filters'),
    ...errorResponses([401, 422]),
  },
});

export const createConsumer = createRoute({
  method: 'post',
  path: '/consumers',
  operationId: 'consumers_create_consumer',
  tags,
  summary: 'Create a consumer',
  ...secured('account-wide', scopesFor('consumers', null, 'write')),
  request: { body: jsonBody(PostConsumerItem, 'The new consumer') },
  responses: {
    200: jsonContent(ConsumerItem, 'The created consumer'),
    ...errorResponses([400, 401, 422], { serviceError422: true }),
  },
});

export const getConsumer = createRoute({
  method: 'get',
  path: '/consumers/{consumer_id}',
  operationId: 'consumers_get_consumer',
  tags,
  summary: 'Get one consumer',
  ...secured('consumer', scopesFor('consumers', null, 'read')),
  request: { params: ConsumerIdParam },
  responses: {
    200: jsonContent(ConsumerItem, 'The consumer'),
    ...errorResponses([401, 404, 422]),
  },
});

export const updateConsumer = createRoute({
  method: 'patch',
  path: '/consumers/{consumer_id}',
  operationId: 'consumers_update_consumer',
  tags,
  summary: 'Update one consumer',
  ...secured('consumer', scopesFor('consumers', null, 'write')),
  request: { params: ConsumerIdParam, body: jsonBody(UpdateConsumerItem, 'The fields to change') },
  responses: {
    200: jsonContent(ConsumerItem, 'The updated consumer'),
    ...errorResponses([400, 401, 404, 422], { serviceError422: true }),
  },
});

export const deleteConsumer = createRoute({
  method: 'delete',
  path: '/consumers/{consumer_id}',
  operationId: 'consumers_delete_consumer',
  tags,
  summary: 'Delete one consumer and everything that belongs to it',
  ...secured('consumer', scopesFor('consumers', null, 'write')),
  request: { params: ConsumerIdParam },
  responses: {
    204: emptyResponse('The consumer was deleted'),
    ...errorResponses([401, 404, 422]),
  },
});
