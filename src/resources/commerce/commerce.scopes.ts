/** MCP scopes of the eCommerce operations, as the reference lists them. */
const read = (group: string) => ['commerce', 'commerce.read', `commerce.${group}`, `commerce.${group}.read`];
const write = (group: string) => ['commerce', `commerce.${group}`];
export const COMMERCE_SCOPES = {
  customersRead: read('customers'),
  productsRead: read('products_variants'),
  productsWrite: write('products_variants'),
  locationsRead: read('locations'),
  ordersRead: read('orders'),
  ordersWrite: write('orders'),
  paymentMethodsRead: read('payment_methods'),
  categoriesRead: read('categories'),
  taxesRead: read('taxes'),
  countriesRead: read('countries'),
} as const;
