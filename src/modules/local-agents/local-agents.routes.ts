import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses, jsonContent, publicRoute } from '../../platform/openapi.js';
import { ReleaseItem, ReleasesQuery } from './local-agents.schemas.js';

/** Public, as in the service: the installer of the agent asks without a token. */
export const getReleases = createRoute({
  method: 'get',
  path: '/local-agents/releases',
  operationId: 'get_releases_local_agents_releases_get',
  tags: ['Connectors', 'Local Agents'],
  summary: 'List the releases of the local agent of a connector, newest first',
  ...publicRoute(),
  request: { query: ReleasesQuery },
  responses: {
    200: jsonContent(z.array(ReleaseItem), 'The releases; none for a connector without a local agent'),
    ...errorResponses([422]),
  },
});
