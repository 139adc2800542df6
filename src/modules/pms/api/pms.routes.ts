import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonContent, scopesFor, secured } from '../../../platform/openapi.js';
import {
  ClosureDateParam,
  ClosureQuery,
  ConsumerIdParam,
  CustomerIdParam,
  CustomersQuery,
  LocationPageQuery,
  OrdersQuery,
  PageOnlyQuery,
  PeriodLocationQuery,
  PeriodQuery,
  PMSClosureItem,
  PMSCustomerItem,
  ServicePage_PMSAccountingCategoryItem_,
  ServicePage_PMSAccountingTransactionItem_,
  ServicePage_PMSCustomerItem_,
  ServicePage_PMSInvoiceFullItem_,
  ServicePage_PMSLocationItem_,
  ServicePage_PMSOrderItem_,
  ServicePage_PMSPaymentItem_,
  ServicePage_PMSPaymentMethods_,
  ServicePage_PMSTaxRateItem_,
} from './pms.schemas.js';

const base = '/consumers/{consumer_id}/pms';
const errors = errorResponses([400, 401, 404, 422]);
const API = 'Property Management System';

export const getOrders = createRoute({
  method: 'get',
  path: `${base}/orders`,
  operationId: 'pms_get_orders',
  tags: [API, 'Orders'],
  summary: 'List the stays of a period',
  ...secured('consumer', scopesFor('pms', 'orders', 'read')),
  request: { params: ConsumerIdParam, query: OrdersQuery },
  responses: { 200: jsonContent(ServicePage_PMSOrderItem_, 'The stays, oldest check-in first'), ...errors },
});

export const getInvoices = createRoute({
  method: 'get',
  path: `${base}/invoices`,
  operationId: 'pms_get_invoices',
  tags: [API, 'Invoices'],
  summary: 'List the invoices of a period',
  ...secured('consumer', scopesFor('pms', 'invoices', 'read')),
  request: { params: ConsumerIdParam, query: PeriodLocationQuery },
  responses: { 200: jsonContent(ServicePage_PMSInvoiceFullItem_, 'The invoices, oldest first'), ...errors },
});

export const getCustomers = createRoute({
  method: 'get',
  path: `${base}/customers`,
  operationId: 'pms_get_customers',
  tags: [API, 'Customers'],
  summary: 'List the guests and companies',
  ...secured('consumer', scopesFor('pms', 'customers', 'read')),
  request: { params: ConsumerIdParam, query: CustomersQuery },
  responses: { 200: jsonContent(ServicePage_PMSCustomerItem_, 'The customers, by name'), ...errors },
});

export const getCustomer = createRoute({
  method: 'get',
  path: `${base}/customers/{customer_id}`,
  operationId: 'pms_get_customer',
  tags: [API, 'customers', 'Customers'],
  summary: 'Get one guest or company',
  ...secured('consumer', scopesFor('pms', 'customers', 'read')),
  request: { params: CustomerIdParam },
  responses: { 200: jsonContent(PMSCustomerItem, 'The customer'), ...errors },
});

export const getLocations = createRoute({
  method: 'get',
  path: `${base}/locations`,
  operationId: 'pms_get_locations',
  tags: [API, 'Locations'],
  summary: 'List the hotels',
  ...secured('consumer', scopesFor('pms', 'locations', 'read')),
  request: { params: ConsumerIdParam, query: PageOnlyQuery },
  responses: { 200: jsonContent(ServicePage_PMSLocationItem_, 'The hotels'), ...errors },
});

export const getPayments = createRoute({
  method: 'get',
  path: `${base}/payments`,
  operationId: 'pms_get_payments',
  tags: [API, 'Payments'],
  summary: 'List the payments of a period',
  ...secured('consumer', scopesFor('pms', 'payments', 'read')),
  request: { params: ConsumerIdParam, query: PeriodQuery },
  responses: { 200: jsonContent(ServicePage_PMSPaymentItem_, 'The payments, oldest first'), ...errors },
});

export const getPaymentMethods = createRoute({
  method: 'get',
  path: `${base}/payment-methods`,
  operationId: 'pms_get_payments_methods',
  tags: [API, 'Payment methods'],
  summary: 'List the payment methods',
  ...secured('consumer', scopesFor('pms', 'payment_methods', 'read')),
  request: { params: ConsumerIdParam, query: LocationPageQuery },
  responses: { 200: jsonContent(ServicePage_PMSPaymentMethods_, 'The payment methods'), ...errors },
});

export const getAccountingCategories = createRoute({
  method: 'get',
  path: `${base}/accounting-categories`,
  operationId: 'pms_get_accounting_categories',
  tags: [API, 'Categories'],
  summary: 'List the accounting categories (revenue groups)',
  ...secured('consumer', scopesFor('pms', 'categories', 'read')),
  request: { params: ConsumerIdParam, query: PageOnlyQuery },
  responses: {
    200: jsonContent(ServicePage_PMSAccountingCategoryItem_, 'The accounting categories'),
    ...errors,
  },
});

export const getClosure = createRoute({
  method: 'get',
  path: `${base}/closures/{date}`,
  operationId: 'pms_get_closure',
  tags: [API, 'Closures'],
  summary: 'Get the closure of a day',
  ...secured('consumer', scopesFor('pms', 'closure_info', 'read')),
  request: { params: ClosureDateParam, query: ClosureQuery },
  responses: { 200: jsonContent(PMSClosureItem, 'The status of the day and its closures'), ...errors },
});

export const getTaxes = createRoute({
  method: 'get',
  path: `${base}/taxes`,
  operationId: 'pms_get_taxes',
  tags: [API, 'Taxes'],
  summary: 'List the tax rates',
  ...secured('consumer', scopesFor('pms', 'taxes', 'read')),
  request: { params: ConsumerIdParam, query: PageOnlyQuery },
  responses: { 200: jsonContent(ServicePage_PMSTaxRateItem_, 'The tax rates'), ...errors },
});

export const getAccountingTransactions = createRoute({
  method: 'get',
  path: `${base}/accounting-transactions`,
  operationId: 'pms_get_accounting_transactions',
  tags: [API, 'Accounting transactions'],
  summary: 'List the accounting transactions of a period',
  ...secured('consumer', scopesFor('pms', 'accounting_transactions', 'read')),
  request: { params: ConsumerIdParam, query: PeriodLocationQuery },
  responses: {
    200: jsonContent(ServicePage_PMSAccountingTransactionItem_, 'The transactions, by date and group'),
    ...errors,
  },
});
