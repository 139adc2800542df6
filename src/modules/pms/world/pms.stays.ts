import { uuidFrom } from '../../../lib/ids.js';
import { pad, round2, sum2, taxOf, taxTotals } from '../../../platform/seeding/vertical-data.js';
import type {
  PmsDataset,
  PmsInvoice,
  PmsOrder,
  PmsOrderLine,
  PmsPayment,
  PmsTaxRate,
} from '../model/pms.records.js';

/**
 * How a stay becomes records, for the seeder and for declared fixtures alike: its lines totalled
 * (the city tax adds no VAT), its order numbered after the dataset's last, and, once checked out,
 * its invoice with the payments that settle it.
 */

/** The number the next stay of the dataset takes, and its order id. */
export function nextStay(dataset: PmsDataset): { number: number; orderId: string } {
  dataset.counters.order = (dataset.counters.order ?? 0) + 1;
  const number = dataset.counters.order;
  return { number, orderId: uuidFrom('pms', dataset.connectionid, 'order', number) };
}

export interface StayLineInput {
  description: string;
  quantity: number;
  unitPrice: number;
  tax: PmsTaxRate;
  categoryId: string;
  discount: { name: string; total: number } | null;
}

/** The index-th line (from 0) of the stay numbered `number`. */
export function stayLine(
  orderId: string,
  number: number | string,
  index: number,
  line: StayLineInput,
): PmsOrderLine {
  const untaxed = round2(line.quantity * line.unitPrice - (line.discount?.total ?? 0));
  const taxAmount = line.tax.is_city_tax ? 0 : taxOf(untaxed, line.tax.rate ?? 0);
  return {
    id: `${orderId.slice(0, 8)}-${index + 1}`,
    source_ref: { id: `${number}.${index + 1}`, model: 'folio_line' },
    type: 'service',
    menu_id: null,
    quantity: line.quantity,
    unit_price: line.unitPrice,
    total: round2(untaxed + taxAmount),
    tax_amount: taxAmount,
    tax_rate: line.tax.is_city_tax ? 0 : (line.tax.rate ?? 0),
    tax_id: line.tax.id,
    description: line.description,
    discounts: line.discount
      ? [{ name: line.discount.name, total: line.discount.total, type: 'UNKNOWN' }]
      : [],
    product_id: null,
    accounting_category_id: line.categoryId,
  };
}

export interface StayInput {
  orderId: string;
  number: number;
  locationId: string;
  room: PmsDataset['rooms'][number];
  customerId: string;
  checkIn: string;
  checkOut: string;
  booked: string;
  guests: number;
  lines: PmsOrderLine[];
  /** Checked out: the stay is invoiced and paid. */
  closed: boolean;
  /** The payments that settle the invoice (asked only when the stay is closed, before `source`). */
  payments: (invoiceId: string, invoiceNumber: string, total: number) => PmsPayment[];
  source: () => PmsOrder['source'];
}

/** Stores the stay's order, and its invoice (numbered after the dataset's last) when it is closed. */
export function bookStay(dataset: PmsDataset, stay: StayInput): void {
  const order = stayOrder(dataset, stay);
  if (stay.closed) {
    dataset.counters.invoice = (dataset.counters.invoice ?? 0) + 1;
    const invoiceNumber = `F${stay.checkOut.slice(0, 4)}-${pad(dataset.counters.invoice, 5)}`;
    const invoiceId = uuidFrom('pms', dataset.connectionid, 'invoice', dataset.counters.invoice);
    checkOutStay(dataset, order, invoiceId, invoiceNumber, (total) =>
      stay.payments(invoiceId, invoiceNumber, total),
    );
  }
  order.source = stay.source();
}

/** Stores a stay's order as it runs: checked in, not invoiced yet (its source drawn by the caller). */
export function stayOrder(
  dataset: PmsDataset,
  stay: Omit<StayInput, 'closed' | 'payments' | 'source' | 'number'> & { number: number | string },
): PmsOrder {
  const { orderId, number, lines, checkIn, booked, room, customerId } = stay;
  const order: PmsOrder = {
    id: orderId,
    source_ref: { id: `FOLIO-${String(number).padStart(6, '0')}`, model: 'folio' },
    order_number: String(number),
    creation_date: booked,
    closing_date: null,
    service_date: checkIn,
    device_id: null,
    total: sum2(lines.map((l) => l.total)),
    tax_amount: sum2(lines.map((l) => l.tax_amount)),
    total_discount: sum2(lines.flatMap((l) => l.discounts.map((d) => d.total))),
    total_refund: 0,
    total_tip: 0,
    delivery_fee: 0,
    mode: 'UNKNOWN',
    source: 'UNKNOWN',
    currency: 'EUR',
    // The hotel's country (Belgium for a hotel without an address).
    country: dataset.locations.find((l) => l.id === stay.locationId)?.address?.country ?? 'BE',
    loyalty: null,
    customer_id: customerId,
    location_id: stay.locationId,
    taxes: taxTotals(lines),
    guests: stay.guests,
    items: lines,
    service_id: null,
    reservation: {
      id: uuidFrom('pms', dataset.connectionid, 'reservation', number),
      source_ref: { id: `RES-${String(number).padStart(6, '0')}`, model: 'reservation' },
      start_date: checkIn,
      end_date: stay.checkOut,
      creation_date: booked,
      resource_id: { id: room.id, source_ref: { id: room.identifier, model: 'room' } },
      resource_name: room.name,
      resource_identifier: room.identifier,
    },
    invoice_ids: [],
  };
  dataset.orders[orderId] = order;
  return order;
}

/**
 * Checks a running stay out at its reservation's end: its invoice bills the stay's lines, settled by
 * the payments `payments` makes of its total, and the order is closed then.
 */
export function checkOutStay(
  dataset: PmsDataset,
  order: PmsOrder,
  invoiceId: string,
  invoiceNumber: string,
  payments: (total: number) => PmsPayment[],
): PmsInvoice {
  const checkOut = order.reservation?.end_date as string;
  const invoice: PmsInvoice = {
    id: invoiceId,
    source_ref: { id: invoiceNumber, model: 'invoice' },
    invoice_number: invoiceNumber,
    creation_date: checkOut,
    closing_date: checkOut,
    customer_id: order.customer_id as string,
    order_id: order.id,
    location_id: order.location_id as string,
    payments: payments(order.total),
    service_id: null,
    tax_amount: order.tax_amount,
    untaxed_amount: round2(order.total - order.tax_amount),
    total: order.total,
    currency: 'EUR',
  };
  dataset.invoices[invoiceId] = invoice;
  order.closing_date = checkOut;
  order.invoice_ids = [invoiceId];
  return invoice;
}
