import type { RouteHandler } from '@hono/zod-openapi';
import { errors } from '../../lib/errors.js';
import type { AppEnv } from '../../platform/context.js';
import { checkKeyCredentials, checkMcpConsumer, grantScopes, principalOfKey } from './auth.domain.js';
import type * as routes from './auth.routes.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

export const generateToken: Handler<'generateToken'> = async (c) => {
  const key = checkKeyCredentials(c.get('store').world, c.req.valid('json'));
  // The journal keeps who asked (never the body): the readiness report counts each client's tokens.
  c.set('principal', principalOfKey(key));
  return c.json(await c.get('tokens').issue(key), 200);
};

export const generateMcpToken: Handler<'generateMcpToken'> = async (c) => {
  const store = c.get('store');
  const principal = c.get('principal');
  const tokens = c.get('tokens');
  const body = c.req.valid('json');
  if (principal.mcp) throw errors.scopeDenied([]);
  const key = checkKeyCredentials(store.world, body);
  if (key.accountid !== principal.accountid) throw errors.invalidCredentials();
  const consumer = checkMcpConsumer(store.world, key, body.consumerId);
  const scopes = grantScopes(store.world, key, body.scopes);
  return c.json(await tokens.issue(key, { consumerid: consumer.consumerid, scopes }), 200);
};
