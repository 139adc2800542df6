import { z } from '@hono/zod-openapi';
import { pageQuery, servicePage } from '../../../lib/pagination.js';
import { ConsumerIdParam } from '../../../platform/openapi.js';
import { BoolParam } from '../../integrations/index.js';
import { DiscountType, Mode, POSLineItemType, POSPaymentStatus, Source } from '../model/pos.values.js';

/**
 * Wire shapes of the Point of Sale vertical, under the reference's names. The shapes shared with the
 * Property Management System (addresses, taxes per rate, closures, discounts, order modes) live here
 * and are imported by resources/pms.
 */

const text = () => z.string().nullable().optional();
const amount = () => z.number().nullable().optional();

export { BoolParam };

export const AddressItem = z
  .object({
    address_type: text(),
    name: text(),
    street: text(),
    number: text(),
    box: text(),
    city: text(),
    postal_code: text(),
    country: text().openapi({ description: 'ISO 3166-1 alpha-2 country code' }),
  })
  .openapi('AddressItem', { description: 'An address of a location or a customer' });

export const PostAddressItem = z
  .object({
    name: z.string().min(1).openapi({ description: 'What the address is, e.g. home' }),
    street: text(),
    number: text(),
    box: text(),
    city: z.string().min(1),
    postal_code: z.string().min(1),
    country: text().openapi({ description: 'ISO 3166-1 alpha-2 country code' }),
  })
  .openapi('PostAddressItem', { description: 'An address given with a new customer' });

export const TotalTaxItem = z
  .object({
    tax_id: text(),
    tax_rate: z.number().openapi({ description: 'Rate in percent' }),
    tax_amount: z.number(),
    total: z.number().openapi({ description: 'Total of the lines at this rate, taxes included' }),
  })
  .openapi('TotalTaxItem', { description: 'Taxes summed for one rate' });

export const DiscountItem = z
  .object({
    name: text(),
    total: z.number().openapi({ description: 'Amount taken off the line, before taxes' }),
    type: DiscountType.optional(),
  })
  .openapi('DiscountItem', { description: 'A discount on a line' });

export const ClosureStates = z.enum(['open', 'closed']).openapi('ClosureStates');

export const ClosurePaymentItem = z
  .object({
    payment_method_id: text(),
    payment_method_name: text(),
    tip: amount(),
    total: z.number(),
  })
  .openapi('ClosurePaymentItem', { description: 'What one payment method collected' });

export const POSClosureInformationItem = z
  .object({
    id: z.string(),
    total: z.number().openapi({ description: 'Sales of the day, taxes included' }),
    tax_amount: z.number(),
    payments: z.array(ClosurePaymentItem).nullable().optional(),
    taxes: z.array(TotalTaxItem).nullable().optional(),
  })
  .openapi('POSClosureInformationItem', { description: 'The closure of one location for the day' });

export const ModifierLine = z
  .object({
    modifier_id: text(),
    name: z.string(),
    modifier_group_id: text(),
    quantity: amount(),
    unit_price: amount(),
    total: amount().openapi({ description: 'quantity × unit_price, before taxes' }),
  })
  .openapi('ModifierLine', { description: 'An option chosen on a line' });

export const POSItem = z
  .object({
    id: z.string(),
    type: POSLineItemType.nullable().optional(),
    menu_id: text(),
    quantity: z.number(),
    unit_price: z.number().openapi({ description: 'Before taxes' }),
    total: z.number().openapi({
      description: 'quantity × unit_price + modifiers − discounts, plus tax_amount',
    }),
    tax_amount: z.number(),
    tax_rate: amount(),
    tax_id: text(),
    description: text(),
    discounts: z.array(DiscountItem).nullable().optional(),
    product_id: text(),
    accounting_category_id: text(),
    modifiers: z.array(ModifierLine).nullable().optional(),
  })
  .openapi('POSItem', { description: 'A line of an order' });

export const POSPaymentItem = z
  .object({
    id: text(),
    payment_method_id: text(),
    payment_method_name: text(),
    total: z.number().openapi({ description: "Paid towards the order's total" }),
    tip: amount().openapi({ description: 'Tip paid on top of total' }),
    status: POSPaymentStatus.nullable().optional(),
    currency: text(),
    date: z.string().nullable().optional().openapi({ format: 'date-time' }),
    invoice_ref: text(),
    order_id: text(),
  })
  .openapi('POSPaymentItem', { description: 'A payment of an order' });

export const POSOrderItem = z
  .object({
    id: z.string(),
    order_number: text(),
    creation_date: z.string().openapi({ format: 'date-time' }),
    closing_date: z.string().nullable().optional().openapi({ format: 'date-time' }),
    service_date: z.string().nullable().optional().openapi({ format: 'date-time' }),
    device_id: text(),
    total: z.number().openapi({ description: "Sum of the lines' totals, taxes included" }),
    tax_amount: z.number(),
    total_discount: amount(),
    total_refund: amount(),
    total_tip: amount(),
    delivery_fee: amount().openapi({ description: 'Total of the delivery line, already in total' }),
    mode: Mode.nullable().optional(),
    source: Source.nullable().optional(),
    currency: text(),
    country: text(),
    loyalty: z.number().int().nullable().optional(),
    customer_id: text(),
    location_id: text(),
    taxes: z.array(TotalTaxItem).nullable().optional(),
    guests: z.number().int().nullable().optional(),
    payments: z.array(POSPaymentItem),
    items: z.array(POSItem),
    invoice_id: text(),
  })
  .openapi('POSOrderItem', { description: 'An order (a ticket) of the point of sale' });

export const UpdateOrderItem = z
  .object({
    customer_id: text().openapi({ description: 'The customer to link the order to; null unlinks it' }),
  })
  .openapi('UpdateOrderItem', { description: 'Changes to an order' });

export const POSLocationItem = z
  .object({
    id: z.string(),
    name: z.string(),
    timezone: text(),
    address: AddressItem.nullable().optional(),
  })
  .openapi('POSLocationItem', { description: 'A shop or restaurant of the point of sale' });

export const SalesItem = z
  .object({
    total: z.number().openapi({ description: 'Sales of the closed orders, taxes included' }),
    tax_amount: z.number(),
    taxes: z.array(TotalTaxItem).nullable().optional(),
  })
  .openapi('SalesItem', { description: 'Sales of a period' });

export const PaymentMethods = z
  .object({
    id: z.string(),
    name: z.string(),
    extra: text().openapi({ description: 'The name the software shows' }),
  })
  .openapi('PaymentMethods', { description: 'A payment method of the point of sale' });

export const POSCustomerItem = z
  .object({
    id: z.string(),
    first_name: text(),
    last_name: text(),
    name: z.string(),
    phone: text(),
    email: text(),
    created_on: z.string().nullable().optional().openapi({ format: 'date-time' }),
    addresses: z.array(AddressItem).nullable().optional(),
    loyalty: z.number().int().nullable().optional(),
    birthdate: z.iso.date().nullable().optional(),
  })
  .openapi('POSCustomerItem', { description: 'A customer of the point of sale' });

export const POSCreateCustomerItem = z
  .object({
    first_name: z.string().min(1),
    last_name: z.string().min(1),
    phone: text(),
    email: text(),
    address: PostAddressItem.nullable().optional(),
  })
  .openapi('POSCreateCustomerItem', { description: 'A new customer' });

export const ProductCategoryItem = z
  .object({
    id: z.string(),
    name: z.string(),
    description: text(),
    id_parent: text(),
  })
  .openapi('ProductCategoryItem', { description: 'A category of products' });

export const ProductPriceItem = z
  .object({
    unit_price: z.number().openapi({ description: 'Before taxes' }),
    tax_rate: amount(),
  })
  .openapi('ProductPriceItem', { description: 'A price of a product, with its tax rate' });

export const POSProductItem = z
  .object({
    id: z.string(),
    categories: z.array(z.string()).nullable().optional(),
    name: z.string(),
    description: text(),
    prices: z.array(ProductPriceItem),
    modifier_groups_ids: z.array(z.string()).nullable().optional(),
    accounting_category_ids: z.array(z.string()).nullable().optional(),
  })
  .openapi('POSProductItem', { description: 'A product sold by the point of sale' });

export const AccountingCategoryItem = z
  .object({
    id: z.string(),
    name: z.string(),
    code: text(),
    ledger_account_code: text(),
    posting_account_code: text(),
  })
  .openapi('AccountingCategoryItem', { description: 'How sales are booked in accounting' });

export const POSTaxRateItem = z
  .object({
    id: z.string(),
    label: text(),
    rate: amount(),
    tax_code: text(),
  })
  .openapi('POSTaxRateItem', { description: 'A tax rate of the point of sale' });

export const ClosureItem = z
  .object({
    date: z.iso.date(),
    status: ClosureStates,
    closures: z.array(POSClosureInformationItem).nullable().optional(),
  })
  .openapi('ClosureItem', { description: 'Whether a day is closed, and its closures per location' });

export const ObjectivesItem = z
  .object({
    total: z.number().openapi({ description: 'Sales objective of the day, taxes included' }),
    tax_amount: z.number(),
    date: z.iso.date(),
  })
  .openapi('ObjectivesItem', { description: 'The sales objective of one day' });

export const ModifierOptionItem = z
  .object({
    id: z.string(),
    name: text(),
    price: z.number().openapi({ description: 'Added to the unit price, before taxes' }),
  })
  .openapi('ModifierOptionItem');

export const ModifiersItem = z
  .object({
    id: z.string(),
    name: text(),
    options: z.array(ModifierOptionItem),
  })
  .openapi('ModifiersItem', { description: 'A group of options a product can take' });

export const ReportCategory = z
  .enum([
    'Supply of goods subject to value-added tax.',
    'Services subject to value-added tax.',
    'Supply of goods and provision of services not subject to value-added tax in France, including intra-Community distance sales mentioned in 1° of I of Article 258 A and in Article 259 B of the French General Tax Code.',
    'Transactions subject to the regimes provided for in e) of 1 of Article 266 and in Articles 268 and 297 A of the French General Tax Code (VAT margin scheme).',
  ])
  .openapi('ReportCategory');

export const ReportOrders = z
  .object({
    currency: z.string(),
    total: z.number(),
    tax_amount: z.number(),
    tax_duedatetypecode: z.string().max(3).nullable().optional(),
    category: ReportCategory,
    total_orders: z.number().int(),
    taxes: z.array(TotalTaxItem).nullable().optional(),
  })
  .openapi('ReportOrders', { description: 'Sales of one category of the day' });

export const ReportPayments = z
  .object({
    tax_id: text(),
    tax_rate: z.number(),
    tax_amount: z.number(),
    total: z.number(),
    payment_method_id: text(),
    payment_method_name: text(),
    currency: z.string(),
  })
  .openapi('ReportPayments', { description: 'What one payment method collected at one tax rate' });

export const ReportItem = z
  .object({
    date: z.iso.date(),
    location_id: z.string(),
    orders: z.array(ReportOrders).nullable().optional(),
    payments: z.array(ReportPayments).nullable().optional(),
  })
  .openapi('ReportItem', { description: 'The e-reporting summary of one day of one location' });

export const States = z.enum(['open', 'closed', 'all']).openapi('States');

export const ServicePage_ModifiersItem_ = servicePage(ModifiersItem, 'ModifiersItem');
export const ServicePage_POSOrderItem_ = servicePage(POSOrderItem, 'POSOrderItem');
export const ServicePage_POSLocationItem_ = servicePage(POSLocationItem, 'POSLocationItem');
export const ServicePage_POSPaymentItem_ = servicePage(POSPaymentItem, 'POSPaymentItem');
export const ServicePage_PaymentMethods_ = servicePage(PaymentMethods, 'PaymentMethods');
export const ServicePage_POSCustomerItem_ = servicePage(POSCustomerItem, 'POSCustomerItem');
export const ServicePage_ProductCategoryItem_ = servicePage(ProductCategoryItem, 'ProductCategoryItem');
export const ServicePage_POSProductItem_ = servicePage(POSProductItem, 'POSProductItem');
export const ServicePage_AccountingCategoryItem_ = servicePage(
  AccountingCategoryItem,
  'AccountingCategoryItem',
);
export const ServicePage_POSTaxRateItem_ = servicePage(POSTaxRateItem, 'POSTaxRateItem');
export const ServicePage_ObjectivesItem_ = servicePage(ObjectivesItem, 'ObjectivesItem');

// ------------------------------------------------------------------------------------------------
// Parameters.

export { ConsumerIdParam };

export const OrderIdParam = ConsumerIdParam.extend({
  order_id: z.string().openapi({ param: { name: 'order_id', in: 'path' }, description: 'Id of the order' }),
});
export const CustomerIdParam = ConsumerIdParam.extend({
  customer_id: z
    .string()
    .openapi({ param: { name: 'customer_id', in: 'path' }, description: 'Id of the customer' }),
});
export const ClosureDateParam = ConsumerIdParam.extend({
  date: z.iso.date().openapi({ param: { name: 'date', in: 'path' }, description: 'The day (YYYY-MM-DD)' }),
});

/** location_id: only that location (an unknown one matches nothing); absent means every location. */
export const locationIdParam = z
  .string()
  .optional()
  .openapi({
    param: { name: 'location_id', in: 'query' },
    description: 'Only this location (GET .../locations lists them); default: every location',
  });

export const dateParam = (name: string, description: string) =>
  z.iso.date().openapi({ param: { name, in: 'query', required: true }, description });

export const optionalDateParam = (name: string, description: string) =>
  z.iso
    .date()
    .optional()
    .openapi({ param: { name, in: 'query' }, description });

export const LocationPageQuery = pageQuery({ location_id: locationIdParam });
export const PageOnlyQuery = pageQuery({});

export const OrdersQuery = pageQuery({
  date_from: optionalDateParam('date_from', 'Orders created on or after this day'),
  date_to: optionalDateParam('date_to', 'Orders created on or before this day'),
  location_id: locationIdParam,
  // No zod default (the generator would copy it into the States component): absent reads as all.
  state: States.optional().openapi({
    param: { name: 'state', in: 'query' },
    description: 'open: not yet paid and closed; closed; all (the default)',
  }),
  closure_id: z
    .string()
    .optional()
    .openapi({
      param: { name: 'closure_id', in: 'query' },
      description: 'Only the orders of this closure (the id of a closure of GET .../closures/{date})',
    }),
});

export const PeriodPageQuery = pageQuery({
  date_from: dateParam('date_from', 'First day of the period'),
  date_to: dateParam('date_to', 'Last day of the period'),
});

export const SalesQuery = z.object({
  date_from: dateParam('date_from', 'First day of the period'),
  date_to: dateParam('date_to', 'Last day of the period'),
  location_id: locationIdParam,
});

export const ObjectivesQuery = pageQuery({
  date_from: dateParam('date_from', 'First day of the period'),
  date_to: dateParam('date_to', 'Last day of the period'),
  location_id: locationIdParam,
});

export const CustomersQuery = pageQuery({
  search: z
    .string()
    .optional()
    .openapi({ param: { name: 'search', in: 'query' }, description: 'Part of the name, e-mail or phone' }),
  email: z
    .string()
    .optional()
    .openapi({ param: { name: 'email', in: 'query' }, description: 'The e-mail address (any letter case)' }),
  phone: z
    .string()
    .optional()
    .openapi({ param: { name: 'phone', in: 'query' }, description: 'The phone number (spaces ignored)' }),
});

export const CategoriesQuery = pageQuery({
  location_id: locationIdParam,
  only_parents: BoolParam.optional().openapi({
    param: { name: 'only_parents', in: 'query' },
    description: 'true: only the top-level categories',
  }),
});

export const ClosureQuery = z.object({ location_id: locationIdParam });

export const ReportQuery = z.object({
  date: dateParam('date', 'The day'),
  location_id: z
    .string()
    .optional()
    .openapi({
      param: { name: 'location_id', in: 'query' },
      description: 'The location; default: the first one of GET .../locations',
    }),
});

export type POSOrderOut = z.infer<typeof POSOrderItem>;
export type POSCustomerOut = z.infer<typeof POSCustomerItem>;
export type POSCreateCustomerInput = z.infer<typeof POSCreateCustomerItem>;
export type ClosureOut = z.infer<typeof ClosureItem>;
export type ReportOut = z.infer<typeof ReportItem>;
