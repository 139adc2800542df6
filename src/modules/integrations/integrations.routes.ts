import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses, jsonContent, publicRoute, secured } from '../../platform/openapi.js';
import {
  ImageParams,
  IntegrationItem,
  IntegrationsQuery,
  LogoImage,
  RawImageParams,
} from './integrations.schemas.js';

const tags = ['Integrations'];

export const listIntegrations = createRoute({
  method: 'get',
  path: '/integrations',
  operationId: 'integrations_get_integrations',
  tags,
  summary: 'List the integrations of the catalogue (active and inactive)',
  ...secured('account'),
  request: { query: IntegrationsQuery },
  responses: {
    200: jsonContent(z.array(IntegrationItem), 'The integrations that match the filters'),
    ...errorResponses([401, 422]),
  },
});

export const getImage = createRoute({
  method: 'get',
  path: '/integrations/{integrationid}/{image_type}.json',
  operationId: 'integrations_get_integration_logo_json',
  tags,
  summary: 'Get the logo or icon of an integration, base64-encoded',
  ...secured('account'),
  request: { params: ImageParams },
  responses: {
    200: jsonContent(LogoImage, 'The image'),
    ...errorResponses([401, 404, 422]),
  },
});

export const getRawImage = createRoute({
  method: 'get',
  path: '/integrations/{integrationid}/{image_type}.png',
  operationId: 'sandbox_integrations_get_integration_image_png',
  tags,
  summary: 'Sandbox extension: the logo or icon as image/png bytes, for <img src> (no token needed)',
  ...publicRoute(),
  request: { params: RawImageParams },
  responses: {
    200: {
      description: 'The PNG image',
      content: { 'image/png': { schema: z.string().openapi({ format: 'binary' }) } },
    },
    ...errorResponses([404]),
  },
});
