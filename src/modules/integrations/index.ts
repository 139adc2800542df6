import type { OpenAPIHono, RouteConfig, z } from '@hono/zod-openapi';
import type { Handler, MiddlewareHandler } from 'hono';
import { errors, ValidationFailure } from '../../lib/errors.js';
import { toValidationIssues } from '../../lib/validation.js';
import type { AppEnv } from '../../platform/context.js';
import * as handlers from './integrations.handlers.js';
import * as routes from './integrations.routes.js';

export function registerIntegrations(app: OpenAPIHono<AppEnv>): void {
  app.openapi(routes.listIntegrations, handlers.listIntegrationsHandler);
  registerImageRoute(app, routes.getImage, '.json', handlers.getImage, (raw, error) => {
    return new ValidationFailure(toValidationIssues(error, raw, 'path', routes.getImage.request.params));
  });
  registerImageRoute(app, routes.getRawImage, '.png', handlers.getRawImage, (raw) =>
    errors.imageNotFound(raw.image_type),
  );
}

type RawImageParams = { integrationid: string; image_type: string };

/**
 * Hono reads `:image_type.json` as one parameter named "image_type.json" that matches any last
 * segment, so the image routes are mounted by hand: a regex parameter holds the file name with its
 * suffix, the route's own params schema validates what is left, and the OpenAPI document still
 * shows the route under its real path.
 */
function registerImageRoute<R extends RouteConfig & { request: { params: z.ZodType } }>(
  app: OpenAPIHono<AppEnv>,
  { middleware, ...route }: R,
  suffix: string,
  handler: unknown,
  invalid: (raw: RawImageParams, error: z.ZodError) => Error,
): void {
  app.openAPIRegistry.registerPath(route);
  const params: MiddlewareHandler<AppEnv> = async (c, next) => {
    const file = c.req.param('image_file') ?? '';
    const raw = {
      integrationid: c.req.param('integrationid') ?? '',
      image_type: file.slice(0, -suffix.length),
    };
    const result = route.request.params.safeParse(raw);
    if (!result.success) throw invalid(raw, result.error);
    c.req.addValidatedData('param', result.data as object);
    await next();
  };
  const before = (middleware === undefined ? [] : [middleware].flat()) as MiddlewareHandler<AppEnv>[];
  const escaped = suffix.replace('.', '\\.');
  // The handler was typed against the route; hono's signature for a plain path cannot see that.
  const chain = [...before, params, handler as Handler<AppEnv>];
  app.on('GET', `/integrations/:integrationid/:image_file{[^/]+${escaped}}`, ...(chain as [Handler<AppEnv>]));
}

export { imageUrl, listIntegrations, requireImage } from './integrations.domain.js';
// What other modules use of this one.
export { BoolParam } from './integrations.schemas.js';
