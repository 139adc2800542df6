/** MCP scopes of the Property Management System operations, as the reference lists them. */
const read = (group: string) => ['pms', 'pms.read', `pms.${group}`, `pms.${group}.read`];
export const PMS_SCOPES = {
  ordersRead: read('orders'),
  invoicesRead: read('invoices'),
  customersRead: read('customers'),
  locationsRead: read('locations'),
  paymentsRead: read('payments'),
  paymentMethodsRead: read('payment_methods'),
  categoriesRead: read('categories'),
  closureRead: read('closure_info'),
  taxesRead: read('taxes'),
  accountingTransactionsRead: read('accounting_transactions'),
} as const;
