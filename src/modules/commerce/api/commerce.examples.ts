import { type ExampleScope, type ExampleWorld, need, verticalExamples } from '../../../platform/examples.js';
import type { CommerceDataset } from '../model/commerce.records.js';
import { commerceDatasetOf, stockAt } from './commerce.domain.js';

/**
 * The request body examples of the eCommerce operations (see platform/examples.ts): read off the
 * dataset of the consumer /docs prefills for commerce paths (its products, stock locations,
 * customers, currencies and payment methods).
 */

/** The prefilled commerce consumer's connection and its dataset. */
const commerceOf = (w: ExampleWorld): ExampleScope & { data: CommerceDataset } =>
  w.once('commerce', () => {
    const scope = w.scope('commerce', 'eCommerce');
    return { ...scope, data: commerceDatasetOf(w.services.store, scope.connection) };
  });

/** A published product's first variant, and the shop's first stock location. */
function shopVariant(data: CommerceDataset) {
  const product = need(
    Object.values(data.products).find((p) => p.status === 'published' && p.variants.length > 0),
    'a published product',
  );
  const variant = need(product.variants[0], 'a variant');
  const location = need(data.locations[0], 'a stock location');
  return { product, variant, location };
}

/** The examples of the eCommerce operations, by operationId. */
export const commerceExamples = verticalExamples(
  {
    ecommerce_update_variant_quantity: {
      path: '/consumers/{consumer_id}/commerce/variants/set_quantity/{variant_id}',
      build: (w) => {
        const { product, variant, location } = shopVariant(commerceOf(w).data);
        return {
          body: { location_id: location.id, available_quantity: stockAt(product, variant, location.id) + 24 },
          params: { variant_id: variant.id },
        };
      },
    },
    ecommerce_create_order: {
      path: '/consumers/{consumer_id}/commerce/orders',
      build: (w) => {
        const { data } = commerceOf(w);
        const currency = need(data.currencies[0], 'a currency');
        const { product, variant } = shopVariant(data);
        const price = need(
          variant.prices.find((p) => p.currency === currency),
          'a price',
        ).price;
        const rate = data.tax_rates.find((t) => t.id === product.tax_id)?.rate ?? 0;
        // A customer of the shop (found by e-mail): a new one would need a phone no one else has.
        const customer = need(
          Object.values(data.customers).find((c) => c.email && c.first_name && c.last_name),
          'a customer',
        );
        const address = customer.addresses[0];
        const postal = {
          first_name: customer.first_name ?? '',
          last_name: customer.last_name ?? '',
          street: address?.street ?? 'Meir',
          number: address?.number ?? '1',
          city: address?.city ?? 'Antwerpen',
          postal_code: address?.postal_code ?? '2000',
          country: address?.country ?? 'BE',
        };
        const method = data.payment_methods.find((m) => m.active);
        return {
          body: {
            customer: {
              email: customer.email,
              first_name: customer.first_name,
              last_name: customer.last_name,
            },
            billing_address: postal,
            shipping_address: postal,
            currency,
            note: 'Gift wrapping, please',
            lines: [{ variant_id: variant.id, quantity: 2, tax_rate: rate, unit_price: price }],
            ...(method ? { payment_method: method.id } : {}),
          },
        };
      },
    },
  },
  { scope: commerceOf },
);
