import { own } from '../../../lib/own.js';
import {
  type CubeDef,
  connectionRows,
  count,
  currencyDimension,
  idDimension,
  OWNER_DIMENSIONS,
  stringDimension,
  sumOf,
  timeDimension,
} from '../../../platform/cube.js';
import { pmsDatasetOf, preparePmsDataset } from './pms.domain.js';

/**
 * The Datalab's cube of PMS invoices: the invoices (one per stay) of the active PMS connections. A
 * query reads the datasets in passing.
 */
export const pmsInvoicesCube: CubeDef = {
  name: 'pms_invoices',
  title: 'PMS invoices',
  description: 'Invoices of the Property Management System connections (one per stay, at check-out)',
  domain: 'pms',
  api: 'Property Management System',
  measures: [
    count('count', 'Number of invoices', 'How many invoices'),
    sumOf('total', 'Total', (r) => r.invoice.total),
    sumOf('tax_amount', 'Tax amount', (r) => r.invoice.tax_amount),
    sumOf('untaxed_amount', 'Untaxed amount', (r) => r.invoice.untaxed_amount),
    sumOf('guests', 'Guests', (r) => r.guests, false),
  ],
  dimensions: [
    idDimension('invoice_id', 'invoice', (r) => r.invoice.id, { primaryKey: true }),
    ...OWNER_DIMENSIONS,
    idDimension('location_id', 'hotel', (r) => r.invoice.location_id),
    stringDimension('location_name', 'Hotel', 'Name of the hotel', (r) => r.location),
    currencyDimension('invoice', (r) => r.invoice.currency),
    timeDimension(
      'creation_date',
      'Invoiced',
      'When the invoice was made (check-out)',
      (r) => r.invoice.creation_date,
    ),
  ],
  relationships: [{ target: 'consumers', relationship: 'many_to_one' }],
  currency: (r) => r.invoice.currency,
  rows: (source) =>
    connectionRows(
      source,
      'Property Management System',
      function* (connection) {
        const dataset = pmsDatasetOf(source.store, connection, 'peek');
        const locations = new Map(dataset.locations.map((l) => [l.id, l.name]));
        for (const invoice of Object.values(dataset.invoices)) {
          yield {
            invoice,
            location: locations.get(invoice.location_id) ?? null,
            guests: own(dataset.orders, invoice.order_id)?.guests ?? null,
          };
        }
      },
      (connection) => preparePmsDataset(source.store, connection),
    ),
};
