import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/context.js';
import * as handlers from './issues.handlers.js';
import * as routes from './issues.routes.js';

export function registerIssues(app: OpenAPIHono<AppEnv>): void {
  app.openapi(routes.listIssues, handlers.listIssuesHandler);
  app.openapi(routes.listConsumerIssues, handlers.listConsumerIssuesHandler);
  app.openapi(routes.getIssue, handlers.getIssueHandler);
}

// What other modules use of this one.
export { listIssues, toIssueItem } from './issues.domain.js';
