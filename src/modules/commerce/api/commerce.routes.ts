import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonContent, scopesFor, secured } from '../../../platform/openapi.js';
import {
  CategoriesQuery,
  CommerceCustomerItem,
  CommerceProductItem,
  ConsumerIdParam,
  CustomerIdParam,
  InventoryDetailsItem,
  InventoryDetailsUpdate,
  OrderIdParam,
  OrderItemIn,
  OrderItemOut,
  OrderQuery,
  OrdersQuery,
  PageOnlyQuery,
  ProductIdParam,
  ProductsQuery,
  ServicePage_CategoryItem_,
  ServicePage_CommerceCustomerItem_,
  ServicePage_CommerceLocationItemOut_,
  ServicePage_CommerceProductItem_,
  ServicePage_CountryItem_,
  ServicePage_OrderItemOut_,
  ServicePage_PaymentMethodItem_,
  ServicePage_TaxRateItem_,
  VariantIdParam,
  VariantItem,
} from './commerce.schemas.js';

const base = '/consumers/{consumer_id}/commerce';
const errors = errorResponses([400, 401, 404, 422]);
const tags = (group: string) => ['eCommerce', group];

export const getCustomers = createRoute({
  method: 'get',
  path: `${base}/customers`,
  operationId: 'ecommerce_get_customers',
  tags: tags('Customers'),
  summary: 'List the customers of the shop',
  ...secured('consumer', scopesFor('commerce', 'customers', 'read')),
  request: { params: ConsumerIdParam, query: PageOnlyQuery },
  responses: {
    200: jsonContent(ServicePage_CommerceCustomerItem_, 'The customers, oldest first'),
    ...errors,
  },
});

export const getCustomer = createRoute({
  method: 'get',
  path: `${base}/customers/{customer_id}`,
  operationId: 'ecommerce_get_customer',
  tags: tags('Customers'),
  summary: 'Get one customer',
  ...secured('consumer', scopesFor('commerce', 'customers', 'read')),
  request: { params: CustomerIdParam },
  responses: { 200: jsonContent(CommerceCustomerItem, 'The customer'), ...errors },
});

export const getProducts = createRoute({
  method: 'get',
  path: `${base}/products`,
  operationId: 'ecommerce_get_products',
  tags: tags('Products and variants'),
  summary: 'List the products and their variants',
  ...secured('consumer', scopesFor('commerce', 'products_variants', 'read')),
  request: { params: ConsumerIdParam, query: ProductsQuery },
  responses: { 200: jsonContent(ServicePage_CommerceProductItem_, 'The products, oldest first'), ...errors },
});

export const getProduct = createRoute({
  method: 'get',
  path: `${base}/products/{product_id}`,
  operationId: 'ecommerce_get_product',
  tags: tags('Products and variants'),
  summary: 'Get one product and its variants',
  ...secured('consumer', scopesFor('commerce', 'products_variants', 'read')),
  request: { params: ProductIdParam },
  responses: { 200: jsonContent(CommerceProductItem, 'The product'), ...errors },
});

export const getVariant = createRoute({
  method: 'get',
  path: `${base}/variants/{variant_id}`,
  operationId: 'ecommerce_get_variant',
  tags: tags('Products and variants'),
  summary: 'Get one variant and its stock per location',
  ...secured('consumer', scopesFor('commerce', 'products_variants', 'read')),
  request: { params: VariantIdParam },
  responses: { 200: jsonContent(VariantItem, 'The variant'), ...errors },
});

export const updateVariantQuantity = createRoute({
  method: 'post',
  path: `${base}/variants/set_quantity/{variant_id}`,
  operationId: 'ecommerce_update_variant_quantity',
  tags: tags('Products and variants'),
  summary: 'Set the stock of a variant at one location',
  ...secured('consumer', scopesFor('commerce', 'products_variants', 'write')),
  request: {
    params: VariantIdParam,
    body: jsonBody(InventoryDetailsUpdate, 'The location and its new stock'),
  },
  responses: { 200: jsonContent(InventoryDetailsItem, 'The stock at the location'), ...errors },
});

export const getLocations = createRoute({
  method: 'get',
  path: `${base}/locations`,
  operationId: 'ecommerce_get_locations',
  tags: tags('Locations'),
  summary: 'List the stock locations',
  ...secured('consumer', scopesFor('commerce', 'locations', 'read')),
  request: { params: ConsumerIdParam, query: PageOnlyQuery },
  responses: { 200: jsonContent(ServicePage_CommerceLocationItemOut_, 'The locations'), ...errors },
});

export const getOrders = createRoute({
  method: 'get',
  path: `${base}/orders`,
  operationId: 'ecommerce_get_orders',
  tags: tags('Orders'),
  summary: 'List the orders, oldest first',
  ...secured('consumer', scopesFor('commerce', 'orders', 'read')),
  request: { params: ConsumerIdParam, query: OrdersQuery },
  responses: { 200: jsonContent(ServicePage_OrderItemOut_, 'The orders'), ...errors },
});

export const createOrder = createRoute({
  method: 'post',
  path: `${base}/orders`,
  operationId: 'ecommerce_create_order',
  tags: tags('Orders'),
  summary: 'Create an order',
  ...secured('consumer', scopesFor('commerce', 'orders', 'write')),
  request: { params: ConsumerIdParam, body: jsonBody(OrderItemIn, 'The new order') },
  responses: {
    200: jsonContent(OrderItemOut, 'The created order'),
    ...errorResponses([400, 401, 404, 422], { serviceError422: true }),
  },
});

export const getOrder = createRoute({
  method: 'get',
  path: `${base}/orders/{order_id}`,
  operationId: 'ecommerce_get_order',
  tags: tags('Orders'),
  summary: 'Get one order',
  ...secured('consumer', scopesFor('commerce', 'orders', 'read')),
  request: { params: OrderIdParam, query: OrderQuery },
  responses: { 200: jsonContent(OrderItemOut, 'The order'), ...errors },
});

export const getPaymentMethods = createRoute({
  method: 'get',
  path: `${base}/payment-methods`,
  operationId: 'ecommerce_get_payments_methods',
  tags: tags('Payment methods'),
  summary: 'List the payment methods',
  ...secured('consumer', scopesFor('commerce', 'payment_methods', 'read')),
  request: { params: ConsumerIdParam, query: PageOnlyQuery },
  responses: { 200: jsonContent(ServicePage_PaymentMethodItem_, 'The payment methods'), ...errors },
});

export const getProductCategories = createRoute({
  method: 'get',
  path: `${base}/product-categories`,
  operationId: 'ecommerce_get_product_categories',
  tags: tags('Categories'),
  summary: 'List the product categories',
  ...secured('consumer', scopesFor('commerce', 'categories', 'read')),
  request: { params: ConsumerIdParam, query: CategoriesQuery },
  responses: { 200: jsonContent(ServicePage_CategoryItem_, 'The categories'), ...errors },
});

export const getTaxes = createRoute({
  method: 'get',
  path: `${base}/taxes`,
  operationId: 'ecommerce_get_taxes',
  tags: tags('Taxes'),
  summary: 'List the tax rates',
  ...secured('consumer', scopesFor('commerce', 'taxes', 'read')),
  request: { params: ConsumerIdParam, query: PageOnlyQuery },
  responses: { 200: jsonContent(ServicePage_TaxRateItem_, 'The tax rates'), ...errors },
});

export const getCountries = createRoute({
  method: 'get',
  path: `${base}/countries`,
  operationId: 'ecommerce_get_countries',
  tags: tags('Countries'),
  summary: 'List the countries the shop ships to',
  ...secured('consumer', scopesFor('commerce', 'countries', 'read')),
  request: { params: ConsumerIdParam, query: PageOnlyQuery },
  responses: { 200: jsonContent(ServicePage_CountryItem_, 'The countries'), ...errors },
});
