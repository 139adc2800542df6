/** The custom routes, as other modules reach them. */

export { createCustomRecord, customSegments, ensureCustomCollection } from './custom-records.js';
// What other modules use of this one.
export {
  ConnectorCustomPathParams,
  CustomPathParams,
  connectorSlug,
  namedConnection,
  registerCustomRoutes,
} from './custom-routes.js';
