import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/context.js';
import { ConnectorCustomPathParams, namedConnection, registerCustomRoutes } from '../custom/index.js';

/**
 * The custom routes of a consumer's custom connector (/consumers/{consumer_id}/custom/{connector}/...,
 * the Custom One API), which the official clients call (see lib/client-routes.ts and
 * ../custom-routes.ts). The connector names one of the consumer's active Custom connections. Its
 * software is the vendor's own, behind its base_url: the sandbox serves each custom path as a
 * collection of records of the connection, as for the verticals' custom routes. The Custom One API
 * has no MCP scope of its own but the Datalab's: these routes refuse MCP tokens.
 */
export function registerConsumerClientRoutes(app: OpenAPIHono<AppEnv>): void {
  registerCustomRoutes(app, {
    prefix: '/consumers/{consumer_id}/custom/{connector}',
    operationId: 'custom_connector',
    tag: 'Custom',
    methods: ['get', 'post', 'patch', 'delete'],
    scopes: { read: null, write: null, area: 'custom' },
    params: ConnectorCustomPathParams,
    open: (c) => namedConnection(c, 'Custom', c.req.param('connector') ?? ''),
  });
}
