import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonContent, scopesFor, secured } from '../../../platform/openapi.js';
import {
  CategoriesQuery,
  ClosureDateParam,
  ClosureItem,
  ClosureQuery,
  ConsumerIdParam,
  CustomerIdParam,
  CustomersQuery,
  LocationPageQuery,
  ObjectivesQuery,
  OrderIdParam,
  OrdersQuery,
  PageOnlyQuery,
  PeriodPageQuery,
  POSCreateCustomerItem,
  POSCustomerItem,
  POSOrderItem,
  ReportItem,
  ReportQuery,
  SalesItem,
  SalesQuery,
  ServicePage_AccountingCategoryItem_,
  ServicePage_ModifiersItem_,
  ServicePage_ObjectivesItem_,
  ServicePage_PaymentMethods_,
  ServicePage_POSCustomerItem_,
  ServicePage_POSLocationItem_,
  ServicePage_POSOrderItem_,
  ServicePage_POSPaymentItem_,
  ServicePage_POSProductItem_,
  ServicePage_POSTaxRateItem_,
  ServicePage_ProductCategoryItem_,
  UpdateOrderItem,
} from './pos.schemas.js';

const base = '/consumers/{consumer_id}/pos';
const errors = errorResponses([400, 401, 404, 422]);
const tags = (group: string) => ['Point of Sale', group];

export const getModifiers = createRoute({
  method: 'get',
  path: `${base}/modifiers`,
  operationId: 'pos_get_modifiers',
  tags: tags('Modifiers'),
  summary: 'List the modifier groups (options products can take)',
  ...secured('consumer', scopesFor('pos', 'modifiers', 'read')),
  request: { params: ConsumerIdParam, query: LocationPageQuery },
  responses: { 200: jsonContent(ServicePage_ModifiersItem_, 'The modifier groups'), ...errors },
});

export const getOrders = createRoute({
  method: 'get',
  path: `${base}/orders`,
  operationId: 'pos_get_orders',
  tags: tags('Orders'),
  summary: 'List the orders, oldest first',
  ...secured('consumer', scopesFor('pos', 'orders', 'read')),
  request: { params: ConsumerIdParam, query: OrdersQuery },
  responses: { 200: jsonContent(ServicePage_POSOrderItem_, 'The orders'), ...errors },
});

export const getOrder = createRoute({
  method: 'get',
  path: `${base}/orders/{order_id}`,
  operationId: 'pos_get_order',
  tags: tags('Orders'),
  summary: 'Get one order',
  ...secured('consumer', scopesFor('pos', 'orders', 'read')),
  request: { params: OrderIdParam },
  responses: { 200: jsonContent(POSOrderItem, 'The order'), ...errors },
});

export const updateOrder = createRoute({
  method: 'patch',
  path: `${base}/orders/{order_id}`,
  operationId: 'pos_update_pos_customer',
  tags: tags('Orders'),
  summary: 'Link an order to a customer',
  ...secured('consumer', scopesFor('pos', 'orders', 'write')),
  request: { params: OrderIdParam, body: jsonBody(UpdateOrderItem, 'The customer of the order') },
  responses: { 200: jsonContent(POSOrderItem, 'The updated order'), ...errors },
});

export const getLocations = createRoute({
  method: 'get',
  path: `${base}/locations`,
  operationId: 'pos_get_locations',
  tags: tags('Locations'),
  summary: 'List the locations (shops, restaurants)',
  ...secured('consumer', scopesFor('pos', 'locations', 'read')),
  request: { params: ConsumerIdParam, query: PageOnlyQuery },
  responses: { 200: jsonContent(ServicePage_POSLocationItem_, 'The locations'), ...errors },
});

export const getPayments = createRoute({
  method: 'get',
  path: `${base}/payments`,
  operationId: 'pos_get_payments',
  tags: tags('Payments'),
  summary: 'List the payments of a period',
  ...secured('consumer', scopesFor('pos', 'payments', 'read')),
  request: { params: ConsumerIdParam, query: PeriodPageQuery },
  responses: { 200: jsonContent(ServicePage_POSPaymentItem_, 'The payments, oldest first'), ...errors },
});

export const getSales = createRoute({
  method: 'get',
  path: `${base}/sales`,
  operationId: 'pos_get_sales',
  tags: tags('Orders'),
  summary: 'Sum the sales of a period',
  ...secured('consumer', scopesFor('pos', 'orders', 'read')),
  request: { params: ConsumerIdParam, query: SalesQuery },
  responses: { 200: jsonContent(SalesItem, 'The sales of the orders closed in the period'), ...errors },
});

export const getPaymentMethods = createRoute({
  method: 'get',
  path: `${base}/payment-methods`,
  operationId: 'pos_get_payments_methods',
  tags: tags('Payment methods'),
  summary: 'List the payment methods',
  ...secured('consumer', scopesFor('pos', 'payment_methods', 'read')),
  request: { params: ConsumerIdParam, query: LocationPageQuery },
  responses: { 200: jsonContent(ServicePage_PaymentMethods_, 'The payment methods'), ...errors },
});

export const getCustomers = createRoute({
  method: 'get',
  path: `${base}/customers`,
  operationId: 'pos_get_customers',
  tags: ['Point of Sale', 'customers', 'Customers'],
  summary: 'List the customers',
  ...secured('consumer', scopesFor('pos', 'customers', 'read')),
  request: { params: ConsumerIdParam, query: CustomersQuery },
  responses: { 200: jsonContent(ServicePage_POSCustomerItem_, 'The customers, by name'), ...errors },
});

export const createCustomer = createRoute({
  method: 'post',
  path: `${base}/customers`,
  operationId: 'pos_create_pos_customer',
  tags: tags('Customers'),
  summary: 'Create a customer',
  ...secured('consumer', scopesFor('pos', 'customers', 'write')),
  request: { params: ConsumerIdParam, body: jsonBody(POSCreateCustomerItem, 'The new customer') },
  responses: { 200: jsonContent(POSCustomerItem, 'The created customer'), ...errors },
});

export const getCustomer = createRoute({
  method: 'get',
  path: `${base}/customers/{customer_id}`,
  operationId: 'pos_get_customer',
  tags: ['Point of Sale', 'customers', 'Customers'],
  summary: 'Get one customer',
  ...secured('consumer', scopesFor('pos', 'customers', 'read')),
  request: { params: CustomerIdParam },
  responses: { 200: jsonContent(POSCustomerItem, 'The customer'), ...errors },
});

export const getProductCategories = createRoute({
  method: 'get',
  path: `${base}/product-categories`,
  operationId: 'pos_get_product_categories',
  tags: tags('Categories'),
  summary: 'List the product categories',
  ...secured('consumer', scopesFor('pos', 'categories', 'read')),
  request: { params: ConsumerIdParam, query: CategoriesQuery },
  responses: { 200: jsonContent(ServicePage_ProductCategoryItem_, 'The categories'), ...errors },
});

export const getProducts = createRoute({
  method: 'get',
  path: `${base}/products`,
  operationId: 'pos_get_products',
  tags: tags('Products'),
  summary: 'List the products',
  ...secured('consumer', scopesFor('pos', 'products', 'read')),
  request: { params: ConsumerIdParam, query: LocationPageQuery },
  responses: { 200: jsonContent(ServicePage_POSProductItem_, 'The products'), ...errors },
});

export const getAccountingCategories = createRoute({
  method: 'get',
  path: `${base}/accounting-categories`,
  operationId: 'pos_get_accounting_categories',
  tags: tags('Categories'),
  summary: 'List the accounting categories',
  ...secured('consumer', scopesFor('pos', 'categories', 'read')),
  request: { params: ConsumerIdParam, query: LocationPageQuery },
  responses: {
    200: jsonContent(ServicePage_AccountingCategoryItem_, 'The accounting categories'),
    ...errors,
  },
});

export const getTaxes = createRoute({
  method: 'get',
  path: `${base}/tax-rates`,
  operationId: 'pos_get_taxes',
  tags: tags('Taxes'),
  summary: 'List the tax rates',
  ...secured('consumer', scopesFor('pos', 'taxes', 'read')),
  request: { params: ConsumerIdParam, query: PageOnlyQuery },
  responses: { 200: jsonContent(ServicePage_POSTaxRateItem_, 'The tax rates'), ...errors },
});

export const getClosure = createRoute({
  method: 'get',
  path: `${base}/closures/{date}`,
  operationId: 'pos_get_closure',
  tags: tags('Closures'),
  summary: 'Get the closure of a day',
  ...secured('consumer', scopesFor('pos', 'closure', 'read')),
  request: { params: ClosureDateParam, query: ClosureQuery },
  responses: { 200: jsonContent(ClosureItem, 'The status of the day and its closures'), ...errors },
});

export const getObjectives = createRoute({
  method: 'get',
  path: `${base}/objectives`,
  operationId: 'pos_get_objectives',
  tags: tags('Objectives'),
  summary: 'List the daily sales objectives of a period',
  ...secured('consumer', scopesFor('pos', 'objectives', 'read')),
  request: { params: ConsumerIdParam, query: ObjectivesQuery },
  responses: { 200: jsonContent(ServicePage_ObjectivesItem_, 'One objective per day'), ...errors },
});

export const getReport = createRoute({
  method: 'get',
  path: `${base}/report`,
  operationId: 'pos_get_report',
  tags: tags('Closures'),
  summary: 'Get the e-reporting summary of a day',
  ...secured('consumer', scopesFor('pos', 'closure', 'read')),
  request: { params: ConsumerIdParam, query: ReportQuery },
  responses: { 200: jsonContent(ReportItem, 'The summary of the day'), ...errors },
});
