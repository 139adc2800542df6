import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../platform/context.js';
import { scopesFor } from '../../../platform/openapi.js';
import { requireActiveConnection } from '../../../platform/vertical-connection.js';
import { CustomPathParams, registerCustomRoutes } from '../../custom/index.js';

/**
 * Banking routes the official clients call beyond the published document (see lib/client-routes.ts):
 * the connector's custom routes, which the official Python client only posts to, right below
 * banking/ (its custom path, custom/... by convention, follows the vertical's segment). Banking has no
 * other POST, so the route takes any path there. Each post adds a record to the custom path's
 * collection of the Banking connection (see ../custom-routes.ts); no client reads them back through
 * banking/, whose other paths are the unified reads.
 */
export function registerBankingClientRoutes(app: OpenAPIHono<AppEnv>): void {
  registerCustomRoutes(app, {
    prefix: '/consumers/{consumer_id}/banking',
    operationId: 'banking_custom',
    tag: 'Banking',
    methods: ['post'],
    scopes: {
      read: scopesFor('banking', null, 'read'),
      write: scopesFor('banking', null, 'write'),
      area: 'banking',
    },
    params: CustomPathParams,
    open: (c) => requireActiveConnection(c, 'Banking'),
  });
}
