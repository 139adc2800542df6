import { z } from '@hono/zod-openapi';
import { pageQuery, servicePage } from '../../../lib/pagination.js';
import { ConsumerIdParam } from '../../../platform/openapi.js';
import { AddressItemOut, AddressType, Ref } from '../../../platform/wire.js';
import { BoolParam } from '../../integrations/index.js';
import { CommerceTransactionStatus, FeesType, OrderStatus, ProductStatus } from '../model/commerce.values.js';

/**
 * Wire shapes of the eCommerce vertical, under the reference's names. Ref (a record of the connected
 * software) is the Invoicing vertical's; AddressItemOut and AddressType are the accounting ones.
 */

export { BoolParam, ConsumerIdParam, Ref };

const text = () => z.string().nullable().optional();
const instant = () => z.string().nullable().optional().openapi({ format: 'date-time' });

export const CommerceAddressItemOut = z
  .object({
    address_type: AddressType,
    company_name: text(),
    first_name: text(),
    last_name: text(),
    street: text(),
    number: text(),
    box: text(),
    city: text(),
    postal_code: text(),
    country: text().openapi({ description: 'ISO 3166-1 alpha-2 country code' }),
    phone: text(),
    email: text(),
    vat: text(),
  })
  .openapi('CommerceAddressItemOut', { description: 'An address of a customer or an order' });

export const CommerceAddressItemIn = z
  .object({
    first_name: z.string(),
    last_name: z.string(),
    street: z.string(),
    number: z.string(),
    box: text(),
    city: z.string(),
    postal_code: text(),
    country: z.string().openapi({ description: 'ISO 3166-1 alpha-2 country code' }),
    phone: text(),
    email: text(),
  })
  .openapi('CommerceAddressItemIn', { description: 'An address given with a new order' });

export const CommerceCustomerItem = z
  .object({
    id: z.string(),
    source_ref: Ref,
    first_name: text(),
    last_name: text(),
    phone: text(),
    email: text(),
    language: text(),
    internal_notes: text(),
    currency: text(),
    addresses: z.array(CommerceAddressItemOut).nullable().optional(),
    created_on: instant(),
  })
  .openapi('CommerceCustomerItem', { description: 'A customer of the shop' });

export const CommerceProductCategoryItem = z
  .object({ id: z.string(), name: z.string() })
  .openapi('CommerceProductCategoryItem', { description: 'A category a product belongs to' });

export const CommerceProductPriceItem = z
  .object({
    currency: z.string(),
    price: z.number().nullable().optional().openapi({ description: 'Before taxes' }),
  })
  .openapi('CommerceProductPriceItem', { description: 'The price of a variant in one currency' });

export const ProductCostItem = z
  .object({ amount: z.number(), currency: z.string() })
  .openapi('ProductCostItem', { description: 'What one unit costs the shop' });

export const VariantAttributeItem = z
  .object({ name: z.string(), value: z.string() })
  .openapi('VariantAttributeItem', { description: 'What sets a variant apart (color, size...)' });

export const VariantAttributeOptionItem = z
  .object({ name: z.string(), values: z.array(z.string()) })
  .openapi('VariantAttributeOptionItem', { description: 'The values an attribute takes among the variants' });

export const CommonAttributeItem = z
  .object({ name: z.string(), values: z.array(z.string()) })
  .openapi('CommonAttributeItem', { description: 'An attribute shared by every variant' });

export const ImageItem = z
  .object({ id: z.string(), main_image: z.boolean(), url: z.string() })
  .openapi('ImageItem', { description: 'An image of a product or a variant' });

export const CommerceLocationItem = z
  .object({ id: z.string(), name: z.string() })
  .openapi('CommerceLocationItem', { description: 'A stock location' });

export const InventoryDetailsItem = z
  .object({
    location: CommerceLocationItem,
    available_quantity: z.number(),
  })
  .openapi('InventoryDetailsItem', { description: 'The stock of a variant at one location' });

export const InventoryDetailsUpdate = z
  .object({
    location_id: z.string(),
    available_quantity: z.number().min(0),
  })
  .openapi('InventoryDetailsUpdate', { description: 'The new stock of a variant at one location' });

const variantFields = {
  id: z.string(),
  source_ref: Ref,
  parent_id: z.string().openapi({ description: 'Id of the product' }),
  name: z.string(),
  description: text(),
  description_html: text(),
  categories: z.array(CommerceProductCategoryItem).nullable().optional(),
  created_on: instant(),
  sku: text(),
  taxable: z.boolean().nullable().optional(),
  barcode: text(),
  available_quantity: z
    .number()
    .nullable()
    .optional()
    .openapi({ description: 'Stock of every location added up' }),
  prices: z.array(CommerceProductPriceItem).nullable().optional(),
  unit_cost: ProductCostItem.nullable().optional(),
  unit_of_measure: text(),
  weight: z.number().nullable().optional(),
  weight_unit: text(),
  status: ProductStatus.nullable().optional(),
};

export const ProductVariantItem = z
  .object({
    ...variantFields,
    variant_attributes: z.array(VariantAttributeItem).nullable().optional(),
    variant_images: z.array(ImageItem).nullable().optional(),
  })
  .openapi('ProductVariantItem', { description: 'A variant of a product' });

export const VariantItem = z
  .object({
    ...variantFields,
    inventory_details: z.array(InventoryDetailsItem).nullable().optional(),
    common_attributes: z.array(CommonAttributeItem).nullable().optional(),
    variant_attributes: z.array(VariantAttributeItem).nullable().optional(),
    common_images: z.array(ImageItem).nullable().optional(),
    variant_images: z.array(ImageItem).nullable().optional(),
  })
  .openapi('VariantItem', { description: 'A variant, with its stock per location' });

export const CommerceProductItem = z
  .object({
    id: z.string(),
    source_ref: Ref,
    name: z.string(),
    description: text(),
    description_html: text(),
    categories: z.array(CommerceProductCategoryItem).nullable().optional(),
    created_on: instant(),
    last_updated_on: instant(),
    variants: z.array(ProductVariantItem).nullable().optional(),
    status: ProductStatus.nullable().optional(),
    sku: text(),
    common_attributes: z.array(CommonAttributeItem).nullable().optional(),
    variant_attributes_options: z.array(VariantAttributeOptionItem).nullable().optional(),
    common_images: z.array(ImageItem).nullable().optional(),
  })
  .openapi('CommerceProductItem', { description: 'A product of the shop and its variants' });

export const CommerceLocationItemOut = z
  .object({ id: z.string(), name: z.string(), source_ref: Ref.nullable().optional() })
  .openapi('CommerceLocationItemOut', { description: 'A stock location of the shop' });

export const PaymentMethodItem = z
  .object({ id: z.string(), source_ref: Ref, name: z.string(), active: z.boolean() })
  .openapi('PaymentMethodItem', { description: 'A payment method of the shop' });

export const CategoryItem = z
  .object({ id: z.string(), source_ref: Ref, name: z.string(), parent_id: text() })
  .openapi('CategoryItem', { description: 'A product category of the shop' });

export const TaxRateItem = z
  .object({ id: z.string(), source_ref: Ref, label: z.string(), rate: z.number(), country: text() })
  .openapi('TaxRateItem', { description: 'A tax rate of the shop' });

export const CountryItem = z
  .object({ code: z.string(), name: z.string() })
  .openapi('CountryItem', { description: 'A country the shop ships to' });

// ---- orders -------------------------------------------------------------------------------------

export const CommerceDiscountItem = z
  .object({ name: z.string(), description: z.string(), amount: z.number() })
  .openapi('CommerceDiscountItem', { description: 'A discount, before taxes' });

export const OrderLineProductVariantItem = z
  .object({
    id: z.string(),
    sku: text(),
    name: z.string(),
    categories: z.array(CommerceProductCategoryItem).nullable().optional(),
  })
  .openapi('OrderLineProductVariantItem', { description: 'The variant a line sells' });

export const OrderLineItemOut = z
  .object({
    id: z.string(),
    source_ref: Ref,
    created_on: instant(),
    variant: OrderLineProductVariantItem.nullable().optional(),
    quantity: z.number().int(),
    current_quantity: z.number().int().openapi({ description: 'Quantity less what was refunded' }),
    unit_price: z.number().openapi({ description: 'Before taxes' }),
    description: z.string(),
    tax_id: text(),
    tax_rate: z.number(),
    untaxed_amount: z.number().openapi({ description: 'quantity × unit_price − discounts' }),
    tax_amount: z.number(),
    total: z.number(),
    discounts: z.array(CommerceDiscountItem).nullable().optional(),
    gift_card: z.boolean().nullable().optional(),
    is_gift: z.boolean().nullable().optional(),
  })
  .openapi('OrderLineItemOut', { description: 'A line of an order' });

export const OrderCustomerItemOut = z
  .object({
    first_name: text(),
    last_name: text(),
    phone: text(),
    internal_notes: text(),
    email: text(),
    id: z.string(),
  })
  .openapi('OrderCustomerItemOut', { description: 'The customer of an order' });

export const FeesItem = z
  .object({
    id: z.string(),
    source_ref: Ref,
    created_on: instant(),
    type: FeesType,
    removed: z.boolean().nullable().optional(),
    tax_rate: z.number(),
    tax_id: text(),
    discounts: z.array(CommerceDiscountItem).nullable().optional(),
    untaxed_amount: z.number(),
    tax_amount: z.number(),
    total: z.number(),
  })
  .openapi('FeesItem', { description: 'A fee of an order (shipping...)' });

export const OrderTransactions = z
  .object({
    id: z.string(),
    created_on: instant(),
    payment_method_id: text(),
    payment_method_name: text(),
    amount: z.number(),
    status: CommerceTransactionStatus,
  })
  .openapi('OrderTransactions', { description: 'A payment or a refund of an order' });

export const OrderPaymentMethods = z
  .object({ id: z.string(), name: text() })
  .openapi('OrderPaymentMethods', { description: 'A payment method used by an order' });

export const RefundOrderLineItem = z
  .object({
    id: z.string(),
    variant: OrderLineProductVariantItem.nullable().optional(),
    quantity: z.number().int(),
    untaxed_amount: z.number(),
    tax_amount: z.number(),
    total: z.number(),
  })
  .openapi('RefundOrderLineItem', { description: 'What a refund gives back of a line' });

export const ShippingRefund = z
  .object({
    id: z.string(),
    source_ref: Ref,
    untaxed_amount: z.number(),
    tax_amount: z.number(),
    total: z.number(),
  })
  .openapi('ShippingRefund', { description: 'Shipping fees given back' });

export const RefundFeesItem = z
  .object({
    id: z.string(),
    source_ref: Ref,
    type: FeesType,
    untaxed_amount: z.number(),
    tax_amount: z.number(),
    total: z.number(),
  })
  .openapi('RefundFeesItem', { description: 'Other fees given back' });

export const OrderRefundItem = z
  .object({
    id: z.string(),
    source_ref: Ref,
    created_on: instant(),
    total: z.number(),
    reason: text(),
    order_lines: z.array(RefundOrderLineItem).nullable().optional(),
    other: z.number().nullable().optional(),
    shipping_refunds: z.array(ShippingRefund).nullable().optional(),
    other_fees: z.array(RefundFeesItem).nullable().optional(),
    transactions: z.array(OrderTransactions).nullable().optional(),
  })
  .openapi('OrderRefundItem', { description: 'A refund of an order' });

export const ReturnOrderLineItem = z
  .object({
    id: z.string(),
    variant: OrderLineProductVariantItem.nullable().optional(),
    quantity: z.number().int(),
    untaxed_amount: z.number(),
    tax_amount: z.number(),
    total: z.number(),
  })
  .openapi('ReturnOrderLineItem');

export const ReturnFeesItem = z
  .object({
    id: z.string(),
    source_ref: Ref,
    type: FeesType,
    untaxed_amount: z.number(),
    tax_amount: z.number(),
    total: z.number(),
  })
  .openapi('ReturnFeesItem');

export const OrderReturnItem = z
  .object({
    id: z.string(),
    source_ref: Ref,
    created_on: instant(),
    order_lines: z.array(ReturnOrderLineItem).nullable().optional(),
    new_lines: z.array(ReturnOrderLineItem).nullable().optional(),
    linked_fees: z.array(ReturnFeesItem).nullable().optional(),
  })
  .openapi('OrderReturnItem', {
    description: 'Goods sent back (the shop records no returns apart from refunds)',
  });

export const EcommerceFulfillmentType = z.enum(['FBA', 'FBM']).openapi('EcommerceFulfillmentType');

export const EcommerceFulfillmentObject = z
  .object({
    fulfillment_type: EcommerceFulfillmentType,
    shipping_from_address: AddressItemOut.nullable().optional(),
  })
  .openapi('EcommerceFulfillmentObject', { description: 'Who ships the order, and from where' });

export const OrderItemOut = z
  .object({
    id: z.string(),
    source_ref: Ref,
    order_number: text(),
    customer: OrderCustomerItemOut.nullable().optional(),
    billing_address: CommerceAddressItemOut.nullable().optional(),
    shipping_address: CommerceAddressItemOut.nullable().optional(),
    created_on: instant(),
    last_updated_on: instant(),
    confirmed_on: instant(),
    delivery_date: instant(),
    cancelled_on: instant(),
    status: OrderStatus,
    fulfillment: EcommerceFulfillmentObject.nullable().optional(),
    discount_amount: z.number(),
    untaxed_amount_without_fees: z.number(),
    tax_amount_without_fees: z.number(),
    total_without_fees: z.number(),
    current_untaxed_amount: z.number().openapi({ description: 'untaxed_amount less refunds' }),
    current_tax_amount: z.number(),
    current_total: z.number().openapi({ description: 'total less refunded_amount' }),
    untaxed_amount: z.number(),
    tax_amount: z.number(),
    total: z.number().openapi({ description: 'Lines and fees, taxes included' }),
    refunded_amount: z.number().nullable().optional(),
    currency: z.string(),
    note: text(),
    tags: z.array(z.string()).nullable().optional(),
    lines: z.array(OrderLineItemOut),
    other_fees: z.array(FeesItem).nullable().optional(),
    payment_method_id: text(),
    transactions: z.array(OrderTransactions).nullable().optional(),
    payment_methods: z.array(OrderPaymentMethods).nullable().optional(),
    detailed_refunds: z.array(OrderRefundItem).nullable().optional(),
    returns: z.array(OrderReturnItem).nullable().optional(),
  })
  .openapi('OrderItemOut', { description: 'An order of the shop' });

export const OrderCustomerItem = z
  .object({
    first_name: text(),
    last_name: text(),
    phone: text(),
    internal_notes: text(),
    email: z.string().openapi({ description: 'Finds the customer, or creates one' }),
  })
  .openapi('OrderCustomerItem', { description: 'The customer of a new order' });

export const OrderLineItemIn = z
  .object({
    variant_id: z.string(),
    quantity: z.number().int(),
    tax_rate: z.number().openapi({ description: 'Rate in percent, e.g. 21' }),
    unit_price: z.number().openapi({ description: 'Before taxes' }),
  })
  .openapi('OrderLineItemIn', { description: 'A line of a new order' });

export const OrderItemIn = z
  .object({
    customer: OrderCustomerItem,
    billing_address: CommerceAddressItemIn,
    shipping_address: CommerceAddressItemIn,
    currency: z.string(),
    note: text(),
    lines: z.array(OrderLineItemIn).min(1),
    payment_method: text().openapi({
      description: 'A payment method (its id): the order is then paid with it',
    }),
  })
  .openapi('OrderItemIn', { description: 'A new order' });

export const ServicePage_CommerceCustomerItem_ = servicePage(CommerceCustomerItem, 'CommerceCustomerItem');
export const ServicePage_CommerceProductItem_ = servicePage(CommerceProductItem, 'CommerceProductItem');
export const ServicePage_CommerceLocationItemOut_ = servicePage(
  CommerceLocationItemOut,
  'CommerceLocationItemOut',
);
export const ServicePage_OrderItemOut_ = servicePage(OrderItemOut, 'OrderItemOut');
export const ServicePage_PaymentMethodItem_ = servicePage(PaymentMethodItem, 'PaymentMethodItem');
export const ServicePage_CategoryItem_ = servicePage(CategoryItem, 'CategoryItem');
export const ServicePage_TaxRateItem_ = servicePage(TaxRateItem, 'TaxRateItem');
export const ServicePage_CountryItem_ = servicePage(CountryItem, 'CountryItem');

// ---- parameters ---------------------------------------------------------------------------------

const pathId = (name: string, description: string) =>
  z.string().openapi({ param: { name, in: 'path' }, description });

export const CustomerIdParam = ConsumerIdParam.extend({
  customer_id: pathId('customer_id', 'Id of the customer'),
});
export const ProductIdParam = ConsumerIdParam.extend({
  product_id: pathId('product_id', 'Id of the product'),
});
export const VariantIdParam = ConsumerIdParam.extend({
  variant_id: pathId('variant_id', 'Id of the variant'),
});
export const OrderIdParam = ConsumerIdParam.extend({ order_id: pathId('order_id', 'Id of the order') });

const updatedAfter = z.iso
  .datetime({ offset: true, local: true })
  .optional()
  .openapi({
    param: { name: 'updated_after', in: 'query' },
    description: 'Only what changed after this instant',
  });

const boolParam = (name: string, description: string) =>
  BoolParam.optional().openapi({ param: { name, in: 'query' }, description });

export const PageOnlyQuery = pageQuery({});

export const ProductsQuery = pageQuery({
  updated_after: updatedAfter,
  sku: z
    .string()
    .optional()
    .openapi({
      param: { name: 'sku', in: 'query' },
      description: 'The SKU of the product or of one of its variants',
    }),
});

export const OrdersQuery = pageQuery({
  date_from: z.iso
    .date()
    .optional()
    .openapi({
      param: { name: 'date_from', in: 'query' },
      description: 'Orders created on or after this day',
    }),
  date_to: z.iso
    .date()
    .optional()
    .openapi({
      param: { name: 'date_to', in: 'query' },
      description: 'Orders created on or before this day',
    }),
  updated_after: updatedAfter,
  include_detailed_refunds: boolParam(
    'include_detailed_refunds',
    'true: fill detailed_refunds (default false: null)',
  ),
  include_product_categories: boolParam(
    'include_product_categories',
    "true: fill the categories of the lines' variants (default false)",
  ),
  include_customer_details: boolParam(
    'include_customer_details',
    "false: only the customer's id (default true)",
  ),
});

export const OrderQuery = z.object({
  include_product_categories: boolParam(
    'include_product_categories',
    "true: fill the categories of the lines' variants (default false)",
  ),
});

export const CategoriesQuery = pageQuery({
  only_parents: boolParam('only_parents', 'true: only the top-level categories'),
});

export type OrderItemInInput = z.infer<typeof OrderItemIn>;
export type OrderItemOutValue = z.infer<typeof OrderItemOut>;
export type VariantItemOut = z.infer<typeof VariantItem>;
export type CommerceProductOut = z.infer<typeof CommerceProductItem>;
