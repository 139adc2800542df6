import { createRoute, z } from '@hono/zod-openapi';
import { emptyResponse, errorResponses, jsonBody, jsonContent, secured } from '../../platform/openapi.js';
import {
  WebhookIdParam,
  WebhookInstanceGetItem,
  WebhookInstancePatchItem,
  WebhookInstancePostItem,
  WebhookItem,
  WebhookLogItem,
  WebhooksQuery,
} from './webhooks.schemas.js';

const tags = ['Webhooks'];

export const listWebhookTypes = createRoute({
  method: 'get',
  path: '/webhooks/list',
  operationId: 'webhooks_get_webhook_types',
  tags,
  summary: 'List the webhook types the account can subscribe to',
  ...secured('account'),
  responses: {
    200: jsonContent(z.array(WebhookItem), 'The webhook types'),
    ...errorResponses([401]),
  },
});

export const createWebhook = createRoute({
  method: 'post',
  path: '/webhooks',
  operationId: 'webhooks_create_webhook',
  tags,
  summary: 'Subscribe a url to a webhook type',
  ...secured('account'),
  request: { body: jsonBody(WebhookInstancePostItem, 'The new webhook instance') },
  responses: {
    200: jsonContent(WebhookInstanceGetItem, 'The created webhook instance'),
    ...errorResponses([400, 401, 422]),
  },
});

export const listWebhooks = createRoute({
  method: 'get',
  path: '/webhooks',
  operationId: 'webhooks_get_webhooks',
  tags,
  summary: 'List the webhook instances of the environment',
  ...secured('account'),
  request: { query: WebhooksQuery },
  responses: {
    200: jsonContent(z.array(WebhookInstanceGetItem), 'The webhook instances'),
    ...errorResponses([401, 422]),
  },
});

export const getWebhook = createRoute({
  method: 'get',
  path: '/webhooks/{webhookid}',
  operationId: 'webhooks_get_webhook',
  tags,
  summary: 'Get one webhook instance',
  ...secured('account'),
  request: { params: WebhookIdParam },
  responses: {
    200: jsonContent(WebhookInstanceGetItem, 'The webhook instance'),
    ...errorResponses([401, 404, 422]),
  },
});

export const updateWebhook = createRoute({
  method: 'patch',
  path: '/webhooks/{webhookid}',
  operationId: 'webhooks_update_webhook',
  tags,
  summary: 'Change the status, url or signing secret of a webhook instance',
  ...secured('account'),
  request: { params: WebhookIdParam, body: jsonBody(WebhookInstancePatchItem, 'The fields to change') },
  responses: {
    200: jsonContent(WebhookInstanceGetItem, 'The updated webhook instance'),
    ...errorResponses([400, 401, 404, 422]),
  },
});

export const deleteWebhook = createRoute({
  method: 'delete',
  path: '/webhooks/{webhookid}',
  operationId: 'webhooks_delete_webhook',
  tags,
  summary: 'Delete a webhook instance and its delivery logs',
  ...secured('account'),
  request: { params: WebhookIdParam },
  responses: {
    204: emptyResponse('The webhook instance was deleted'),
    ...errorResponses([401, 404, 422]),
  },
});

export const listWebhookLogs = createRoute({
  method: 'get',
  path: '/webhooks/{webhookid}/logs',
  operationId: 'webhooks_get_webhook_logs',
  tags,
  summary: 'List the deliveries of a webhook instance, newest first',
  ...secured('account'),
  request: { params: WebhookIdParam },
  responses: {
    200: jsonContent(z.array(WebhookLogItem), 'The delivery logs'),
    ...errorResponses([401, 404, 422]),
  },
});
