import { z } from '@hono/zod-openapi';
import { pageQuery, servicePage } from '../../../lib/pagination.js';
import { ConsumerIdParam } from '../../../platform/openapi.js';
import { Ref } from '../../../platform/wire.js';
import {
  AddressItem,
  ClosureItem,
  DiscountItem,
  dateParam,
  locationIdParam,
  Mode,
  POSLineItemType,
  POSLocationItem,
  POSPaymentStatus,
  Source,
  TotalTaxItem,
} from '../../pos/index.js';

/**
 * Wire shapes of the Property Management System vertical, under the reference's names (with the
 * service's own prefix replaced, as for ServiceId and ServiceError). The shapes it shares with the
 * Point of Sale (addresses, taxes per rate, closures) are the POS ones.
 */

export { ConsumerIdParam };

const text = () => z.string().nullable().optional();
const amount = () => z.number().nullable().optional();
const instant = () => z.string().nullable().optional().openapi({ format: 'date-time' });

export const ServiceId = z
  .object({ id: z.string(), source_ref: Ref })
  .openapi('ServiceId', { description: 'A record: its id and where it comes from in the software' });

export const PMSStates = z.enum(['consumed', 'closed']).openapi('PMSStates');

export const PMSOrderLineItem = z
  .object({
    id: z.string(),
    source_ref: Ref,
    type: POSLineItemType.nullable().optional(),
    menu_id: text(),
    quantity: z.number(),
    unit_price: z.number().openapi({ description: 'Before taxes' }),
    total: z.number().openapi({ description: 'quantity × unit_price − discounts, plus tax_amount' }),
    tax_amount: z.number(),
    tax_rate: amount(),
    tax_id: text(),
    description: text(),
    discounts: z.array(DiscountItem).nullable().optional(),
    product_id: text(),
    accounting_category_id: text(),
  })
  .openapi('PMSOrderLineItem', { description: 'A line of a stay: nights, meals, extras, city tax' });

export const ReservationItem = z
  .object({
    id: z.string(),
    source_ref: Ref,
    start_date: instant(),
    end_date: instant(),
    creation_date: instant(),
    resource_id: ServiceId.nullable().optional(),
    resource_name: text(),
    resource_identifier: text(),
  })
  .openapi('ReservationItem', { description: 'The reservation of a stay and its room' });

export const PartnerType = z.enum(['owner', 'account']).openapi('PartnerType-Output');

export const InvoicePartnerItem = z
  .object({
    id: z.string(),
    source_ref: Ref,
    type: PartnerType,
    address: AddressItem.nullable().optional(),
    first_name: text(),
    last_name: text(),
    company_name: text(),
  })
  .openapi('InvoicePartnerItem', { description: 'Who an invoice is addressed to' });

export const InvoiceItem = z
  .object({
    id: z.string(),
    source_ref: Ref,
    invoice_number: z.string().nullable(),
    creation_date: instant(),
    closing_date: instant(),
    partners: z.array(InvoicePartnerItem).nullable().optional(),
  })
  .openapi('InvoiceItem', { description: 'A bill of a stay' });

export const PMSOrderItem = z
  .object({
    id: z.string(),
    source_ref: Ref,
    order_number: text(),
    creation_date: z.string().openapi({ format: 'date-time', description: 'When the stay was booked' }),
    closing_date: instant().openapi({
      description: 'Check-out, when the stay was invoiced; null while running',
    }),
    service_date: instant().openapi({ description: 'Check-in' }),
    device_id: text(),
    total: z.number(),
    tax_amount: z.number(),
    total_discount: amount(),
    total_refund: amount(),
    total_tip: amount(),
    delivery_fee: amount(),
    mode: Mode.nullable().optional(),
    source: Source.nullable().optional(),
    currency: text(),
    country: text(),
    loyalty: z.number().int().nullable().optional(),
    customer_id: text(),
    location_id: text(),
    taxes: z.array(TotalTaxItem).nullable().optional(),
    guests: z.number().int().nullable().optional(),
    items: z.array(PMSOrderLineItem),
    service_id: text(),
    reservation: ReservationItem.nullable().optional(),
    bills: z.array(InvoiceItem).nullable().optional(),
  })
  .openapi('PMSOrderItem', { description: 'A stay and what was consumed during it' });

export const PMSPaymentItem = z
  .object({
    id: text(),
    source_ref: Ref,
    payment_method_id: text(),
    payment_method_name: text(),
    total: z.number(),
    tip: amount(),
    status: POSPaymentStatus.nullable().optional(),
    currency: text(),
    date: instant(),
    invoice_ref: text().openapi({ description: 'Number of the invoice paid' }),
    partner_id: ServiceId.nullable().optional(),
    description: text(),
  })
  .openapi('PMSPaymentItem', { description: 'A payment of an invoice' });

export const PMSInvoiceFullItem = z
  .object({
    id: z.string(),
    source_ref: Ref,
    invoice_number: z.string().nullable(),
    creation_date: instant(),
    closing_date: instant(),
    partners: z.array(InvoicePartnerItem).nullable().optional(),
    items: z.array(PMSOrderLineItem),
    payments: z.array(PMSPaymentItem),
    service_id: text(),
    reservation: ReservationItem.nullable().optional(),
    tax_amount: z.number(),
    untaxed_amount: z.number(),
    total: z.number().openapi({ description: 'untaxed_amount + tax_amount; the payments add up to it' }),
  })
  .openapi('PMSInvoiceFullItem', { description: 'An invoice, its lines and payments' });

export const PMSCustomerItem = z
  .object({
    id: z.string(),
    source_ref: Ref,
    first_name: text(),
    last_name: text(),
    company_name: text(),
    phone: text(),
    email: text(),
    account_number: text(),
    created_on: instant(),
    addresses: z.array(AddressItem).nullable().optional(),
    is_company: z.boolean().nullable().optional(),
  })
  .openapi('PMSCustomerItem', { description: 'A guest or a company' });

// The POS location's shape, under the name the reference gives it here.
export const PMSLocationItem = z
  .object(POSLocationItem.shape)
  .openapi('PMSLocationItem', { description: 'A hotel' });

export const PMSPaymentMethods = z
  .object({
    id: z.string(),
    source_ref: Ref,
    name: z.string(),
    extra: text(),
    ledger_account_code: text(),
  })
  .openapi('PMSPaymentMethods', { description: 'A payment method of the hotels' });

export const PMSAccountingCategoryItem = z
  .object({
    id: z.string(),
    source_ref: Ref,
    name: z.string(),
    code: text(),
    ledger_account_code: text(),
    posting_account_code: text(),
  })
  .openapi('PMSAccountingCategoryItem', { description: 'A revenue group and its accounts' });

// The same shape as the POS's ClosureItem, under the name the reference gives it here.
export const PMSClosureItem = z
  .object(ClosureItem.shape)
  .openapi('PMSClosureItem', { description: 'Whether a day is closed, and what each hotel invoiced' });

export const PMSTaxRateItem = z
  .object({
    id: z.string(),
    source_ref: Ref,
    label: text(),
    rate: amount(),
    is_city_tax: z.boolean().nullable().optional(),
  })
  .openapi('PMSTaxRateItem', { description: 'A tax rate; the city tax is an amount per person and night' });

export const PMSAccountingTransactionType = z
  .enum(['payment', 'room', 'addon', 'invoice', 'pos', 'fee', 'tax', 'reservation', 'other'])
  .openapi('PMSAccountingTransactionType');

export const PMSAccountingTransactionStatus = z
  .enum(['draft', 'posted'])
  .openapi('PMSAccountingTransactionStatus');

export const PMSAccountingTransactionOriginType = z
  .enum(['payment', 'invoice', 'order'])
  .openapi('PMSAccountingTransactionOriginType');

export const PMSAccountingTransactionOrigin = z
  .object({ id: z.string(), type: PMSAccountingTransactionOriginType })
  .openapi('PMSAccountingTransactionOrigin', { description: 'The document a transaction comes from' });

export const PMSAccountingTransactionItem = z
  .object({
    id: z.string(),
    source_ref: Ref,
    group_id: z
      .string()
      .openapi({ description: 'The invoice (or the running stay) the transaction belongs to' }),
    date: z.string().openapi({ format: 'date-time' }),
    amount: z
      .number()
      .openapi({ description: 'Revenue and tax positive, payments negative: a settled group adds up to 0' }),
    is_tax_line: z.boolean(),
    sub_group_id: text(),
    tax_code: text(),
    description: text(),
    currency_exchange_rate: amount(),
    currency: z.string(),
    transaction_type: PMSAccountingTransactionType,
    accounting_category_id: text(),
    ledger_account_code: text(),
    status: PMSAccountingTransactionStatus,
    origin: PMSAccountingTransactionOrigin.nullable(),
    partner_id: ServiceId.nullable().optional(),
    reference: text(),
    location_id: text(),
  })
  .openapi('PMSAccountingTransactionItem', { description: 'A line to book in accounting' });

export const ServicePage_PMSOrderItem_ = servicePage(PMSOrderItem, 'PMSOrderItem');
export const ServicePage_PMSInvoiceFullItem_ = servicePage(PMSInvoiceFullItem, 'PMSInvoiceFullItem');
export const ServicePage_PMSCustomerItem_ = servicePage(PMSCustomerItem, 'PMSCustomerItem');
export const ServicePage_PMSLocationItem_ = servicePage(PMSLocationItem, 'PMSLocationItem');
export const ServicePage_PMSPaymentItem_ = servicePage(PMSPaymentItem, 'PMSPaymentItem');
export const ServicePage_PMSPaymentMethods_ = servicePage(PMSPaymentMethods, 'PMSPaymentMethods');
export const ServicePage_PMSAccountingCategoryItem_ = servicePage(
  PMSAccountingCategoryItem,
  'PMSAccountingCategoryItem',
);
export const ServicePage_PMSTaxRateItem_ = servicePage(PMSTaxRateItem, 'PMSTaxRateItem');
export const ServicePage_PMSAccountingTransactionItem_ = servicePage(
  PMSAccountingTransactionItem,
  'PMSAccountingTransactionItem',
);

// ---- parameters ---------------------------------------------------------------------------------

export const CustomerIdParam = ConsumerIdParam.extend({
  customer_id: z
    .string()
    .openapi({ param: { name: 'customer_id', in: 'path' }, description: 'Id of the customer' }),
});

export const ClosureDateParam = ConsumerIdParam.extend({
  date: z.iso.date().openapi({ param: { name: 'date', in: 'path' }, description: 'The day (YYYY-MM-DD)' }),
});

const period = {
  date_from: dateParam('date_from', 'First day of the period'),
  date_to: dateParam('date_to', 'Last day of the period'),
};

export const OrdersQuery = pageQuery({
  ...period,
  location_id: locationIdParam,
  state: PMSStates.optional().openapi({
    param: { name: 'state', in: 'query' },
    description: 'consumed (the default): stays checked in during the period; closed: stays checked out',
  }),
});

export const PeriodLocationQuery = pageQuery({ ...period, location_id: locationIdParam });
export const PeriodQuery = pageQuery(period);
export const LocationPageQuery = pageQuery({ location_id: locationIdParam });
export const PageOnlyQuery = pageQuery({});
export const ClosureQuery = z.object({ location_id: locationIdParam });

export const CustomersQuery = pageQuery({
  search: z
    .string()
    .optional()
    .openapi({
      param: { name: 'search', in: 'query' },
      description: 'Part of the name, company name, e-mail or phone',
    }),
  email: z
    .string()
    .optional()
    .openapi({ param: { name: 'email', in: 'query' }, description: 'The e-mail address (any letter case)' }),
  phone: z
    .string()
    .optional()
    .openapi({ param: { name: 'phone', in: 'query' }, description: 'The phone number (spaces ignored)' }),
});

export type PMSOrderOut = z.infer<typeof PMSOrderItem>;
export type PMSInvoiceOut = z.infer<typeof PMSInvoiceFullItem>;
export type PMSCustomerOut = z.infer<typeof PMSCustomerItem>;
export type PMSPaymentOut = z.infer<typeof PMSPaymentItem>;
export type PMSAccountingTransactionOut = z.infer<typeof PMSAccountingTransactionItem>;
export type PMSClosureOut = z.infer<typeof PMSClosureItem>;
