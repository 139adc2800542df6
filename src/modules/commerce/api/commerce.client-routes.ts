import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { clientRoute } from '../../../lib/client-routes.js';
import { paginate, servicePage } from '../../../lib/pagination.js';
import type { AppEnv } from '../../../platform/context.js';
import { errorResponses, jsonContent, scopesFor, secured } from '../../../platform/openapi.js';
import { operation } from '../../../platform/operation.js';
import { listProducts, toVariantItem } from './commerce.domain.js';
import * as routes from './commerce.routes.js';
import { ConsumerIdParam, ProductsQuery, VariantItem } from './commerce.schemas.js';
import { commerce } from './commerce.vertical.js';

/** eCommerce routes the official clients call beyond the published document (see lib/client-routes.ts). */

export const ServicePage_VariantItem_ = servicePage(VariantItem, 'VariantItem');

export const getVariants = createRoute({
  method: 'get',
  path: '/consumers/{consumer_id}/commerce/variants',
  operationId: 'ecommerce_get_variants',
  tags: ['eCommerce', 'Products and variants'],
  summary: 'List the variants of every product',
  ...clientRoute(
    "Each variant as GET .../variants/{variant_id} answers it, product by product in the order of the products list, then in the product's order. updated_after filters on the product, sku on the variant. Covered as listing the products.",
  ),
  ...secured('consumer', scopesFor('commerce', 'products_variants', 'read')),
  request: { params: ConsumerIdParam, query: ProductsQuery },
  responses: {
    200: jsonContent(ServicePage_VariantItem_, 'The variants'),
    ...errorResponses([400, 401, 404, 422]),
  },
});

export function registerCommerceClientRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(
    getVariants,
    operation(commerce, { ...getVariants, operationId: routes.getProducts.operationId }, (c, { data }) => {
      const { page, size, updated_after, sku } = c.req.valid('query');
      const wanted = sku?.trim().toLowerCase();
      const variants = listProducts(data, { updated_after }).flatMap((product) =>
        product.variants
          .filter((variant) => !wanted || variant.sku?.toLowerCase() === wanted)
          .map((variant) => toVariantItem(data, product, variant)),
      );
      return c.json(paginate(variants, page, size), 200);
    }),
  );
}
