import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/context.js';
import * as handlers from './auth.handlers.js';
import * as routes from './auth.routes.js';

export function registerAuth(app: OpenAPIHono<AppEnv>): void {
  app.openapi(routes.generateToken, handlers.generateToken);
  app.openapi(routes.generateMcpToken, handlers.generateMcpToken);
}

// What other modules use of this one.
export {
  allKnownScopes,
  checkKeyCredentials,
  checkMcpConsumer,
  grantableScopes,
  grantScopes,
  isKnownScope,
  principalOfKey,
} from './auth.domain.js';
