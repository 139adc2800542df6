import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses, jsonContent, secured } from '../../platform/openapi.js';
import {
  ConsumerIssuesParams,
  ExtendedIssueItem,
  IssueItem,
  IssueParams,
  IssueQuery,
  IssuesQuery,
} from './issues.schemas.js';

const tags = ['Issues'];

export const listIssues = createRoute({
  method: 'get',
  path: '/issues',
  operationId: 'issues_get_issues',
  tags,
  summary: 'List the issues of the environment (filters combine: each one given must match)',
  ...secured('account'),
  request: { query: IssuesQuery },
  responses: {
    200: jsonContent(z.array(IssueItem), 'The issues, most recently seen first'),
    ...errorResponses([401, 422]),
  },
});

export const listConsumerIssues = createRoute({
  method: 'get',
  path: '/consumers/{consumer_id}/issues',
  operationId: 'issues_get_issues_by_consumer_id',
  tags,
  summary: 'List the issues of one consumer (same filters)',
  ...secured('consumer'),
  request: { params: ConsumerIssuesParams, query: IssuesQuery },
  responses: {
    200: jsonContent(z.array(IssueItem), 'The issues, most recently seen first'),
    ...errorResponses([401, 404, 422]),
  },
});

export const getIssue = createRoute({
  method: 'get',
  path: '/issues/{issue_id}',
  operationId: 'issues_get_issue',
  tags,
  summary: 'Get one issue with its events',
  ...secured('account'),
  request: { params: IssueParams, query: IssueQuery },
  responses: {
    200: jsonContent(ExtendedIssueItem, 'The issue'),
    ...errorResponses([401, 404, 422]),
  },
});
