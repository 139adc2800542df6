import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonContent, publicRoute, secured } from '../../platform/openapi.js';
import { AuthItem, MCPAuthItem, Token } from './auth.schemas.js';

export const generateToken = createRoute({
  method: 'post',
  path: '/token',
  operationId: 'generate_access_token_token_post',
  tags: ['General'],
  summary: 'Exchange API key credentials for an access token (valid 30 minutes)',
  ...publicRoute(),
  request: { body: jsonBody(AuthItem, 'The credentials of an API key') },
  responses: {
    200: jsonContent(Token, 'A bearer token'),
    ...errorResponses([401, 422]),
  },
});

export const generateMcpToken = createRoute({
  method: 'post',
  path: '/mcp-token',
  operationId: 'generate_mcp_token_mcp_token_post',
  tags: ['MCP'],
  summary: 'Get a token bound to one consumer and to MCP scopes',
  ...secured('account'),
  request: { body: jsonBody(MCPAuthItem, 'The credentials of an API key and the consumer') },
  responses: {
    200: jsonContent(Token, 'A bearer token bound to the consumer and scopes'),
    ...errorResponses([400, 401, 404, 422]),
  },
});
