import type { RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/context.js';
import {
  listIssues,
  requireIssue,
  requireIssueConsumer,
  toExtendedIssueItem,
  toIssueItem,
} from './issues.domain.js';
import type * as routes from './issues.routes.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

export const listIssuesHandler: Handler<'listIssues'> = (c) =>
  c.json(listIssues(c.get('store').world, c.get('principal'), c.req.valid('query')).map(toIssueItem), 200);

export const listConsumerIssuesHandler: Handler<'listConsumerIssues'> = (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const consumer = requireIssueConsumer(store.world, principal, c.req.valid('param').consumer_id);
  const issues = listIssues(store.world, principal, c.req.valid('query'), consumer.consumerid);
  return c.json(issues.map(toIssueItem), 200);
};

export const getIssueHandler: Handler<'getIssue'> = (c) => {
  const issue = requireIssue(c.get('store').world, c.get('principal'), c.req.valid('param').issue_id);
  const lastOnly = c.req.valid('query').last_execution_only === 'true';
  return c.json(toExtendedIssueItem(issue, lastOnly), 200);
};
