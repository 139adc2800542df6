import type { RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/context.js';
import { publicOrigin } from '../../platform/urls.js';
import { listIntegrations, requireImage, toIntegrationItem } from './integrations.domain.js';
import type * as routes from './integrations.routes.js';

type Handler<R extends keyof typeof routes> = RouteHandler<(typeof routes)[R], AppEnv>;

export const listIntegrationsHandler: Handler<'listIntegrations'> = (c) => {
  const { status, include_coverage } = c.req.valid('query');
  const origin = publicOrigin(c.get('config'), c.req.url);
  const items = listIntegrations(c.get('catalogue'), { status }).map((integration) =>
    toIntegrationItem(integration, origin, include_coverage === 'true'),
  );
  return c.json(items, 200);
};

export const getImage: Handler<'getImage'> = (c) => {
  const { integrationid, image_type } = c.req.valid('param');
  const data = requireImage(c.get('catalogue'), integrationid, image_type);
  return c.json({ integrationid, data }, 200);
};

const CANONICAL_INTEGER = /^(0|[1-9]\d{0,15})$/;

export const getRawImage: Handler<'getRawImage'> = (c) => {
  const { integrationid, image_type } = c.req.valid('param');
  const id = CANONICAL_INTEGER.test(integrationid) ? Number(integrationid) : Number.NaN;
  const data = requireImage(c.get('catalogue'), id, image_type);
  return c.body(new Uint8Array(Buffer.from(data, 'base64')), 200, {
    'content-type': 'image/png',
    'cache-control': 'public, max-age=3600',
  });
};
