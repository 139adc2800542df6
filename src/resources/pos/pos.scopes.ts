/** MCP scopes of the Point of Sale operations, as the reference lists them. */
const read = (group: string) => ['pos', 'pos.read', `pos.${group}`, `pos.${group}.read`];
const write = (group: string) => ['pos', `pos.${group}`];
export const POS_SCOPES = {
  modifiersRead: read('modifiers'),
  ordersRead: read('orders'),
  ordersWrite: write('orders'),
  locationsRead: read('locations'),
  paymentsRead: read('payments'),
  paymentMethodsRead: read('payment_methods'),
  customersRead: read('customers'),
  customersWrite: write('customers'),
  categoriesRead: read('categories'),
  productsRead: read('products'),
  taxesRead: read('taxes'),
  closureRead: read('closure'),
  objectivesRead: read('objectives'),
} as const;
