import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/context.js';
import { registerCommerceClientRoutes } from './commerce.client-routes.js';
import * as handlers from './commerce.handlers.js';
import * as routes from './commerce.routes.js';

/**
 * The eCommerce vertical under /consumers/{consumer_id}/commerce. Every operation resolves the
 * consumer's eCommerce connection and its dataset (built on first access from commerce.seed.ts); the
 * rules are in commerce.domain.ts.
 */
export function registerCommerce(app: OpenAPIHono<AppEnv>): void {
  app.openapi(routes.getCustomers, handlers.getCustomers);
  app.openapi(routes.getCustomer, handlers.getCustomer);
  app.openapi(routes.getProducts, handlers.getProducts);
  app.openapi(routes.getProduct, handlers.getProduct);
  registerCommerceClientRoutes(app);
  app.openapi(routes.getVariant, handlers.getVariant);
  app.openapi(routes.updateVariantQuantity, handlers.updateVariantQuantity);
  app.openapi(routes.getLocations, handlers.getLocations);
  app.openapi(routes.getOrders, handlers.getOrders);
  app.openapi(routes.createOrder, handlers.createOrder);
  app.openapi(routes.getOrder, handlers.getOrder);
  app.openapi(routes.getPaymentMethods, handlers.getPaymentMethods);
  app.openapi(routes.getProductCategories, handlers.getProductCategories);
  app.openapi(routes.getTaxes, handlers.getTaxes);
  app.openapi(routes.getCountries, handlers.getCountries);
}
