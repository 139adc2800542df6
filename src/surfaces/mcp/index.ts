import type { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { errors } from '../../lib/errors.js';
import type { AppEnv, Services } from '../../platform/context.js';
import { mcpEndpoint } from './mcp-server.js';
import { OAuthState } from './oauth.domain.js';
import { MCP_PATH, OAUTH_PREFIX, registerOAuth } from './oauth.routes.js';
import type { McpService } from './sessions.js';
import { McpSessions } from './sessions.js';

export type { McpService, McpSessionInfo } from './sessions.js';

/**
 * The remote MCP server (/mcp) and the OAuth 2.0 endpoints its clients sign in through; the sessions
 * are the app's, and `services.mcp` lists them. See docs/mcp.md.
 */
export function registerMcp(app: OpenAPIHono<AppEnv>, services: Services): McpService {
  const sessions = new McpSessions(services.clock, () => services.store.world);
  // What the sessions and the registered clients hold in memory counts toward the world's bytes.
  sessions.countIn(services.store.quota);
  const oauth = new OAuthState(services.clock, services.store.quota);
  services.mcp = sessions;
  registerOAuth(app, services, oauth);
  // The app's body guard stays out of /mcp (see isMcpPath): the same limit, here.
  const limit = services.config.bodyLimit;
  const bounded = bodyLimit({
    maxSize: limit,
    onError: (c) => c.json(errors.payloadTooLarge(limit).toBody(), 413),
  });
  app.on(['GET', 'POST', 'DELETE'], MCP_PATH, bounded, mcpEndpoint(app, services, sessions, oauth));
  return sessions;
}

/**
 * The POSTs of the MCP server and its OAuth endpoints hold no write of their own, so the app's write
 * boundary lets them through: a tool call runs its operation through `app.request`, whose own request
 * takes the boundary (a write held around it would nest the operation's write in it).
 */
export const isMcpPath = (path: string): boolean => path === MCP_PATH || path.startsWith(OAUTH_PREFIX);

/**
 * The routes that read their request's raw body themselves (the OAuth endpoints: their secrets,
 * verifiers and refresh tokens stay out of hono's body cache, which the request journal keeps).
 */
export const RAW_BODY_PATHS = new RegExp(`^${OAUTH_PREFIX}`);
