import {
  activeConnections,
  type CubeDef,
  count,
  OWNER_DIMENSIONS,
  sumOf,
} from '../datalab/datalab.cube-def.js';
import { pmsDatasetOf } from './pms.domain.js';

/** The Datalab's cube of PMS invoices: the invoices (one per stay) of the active PMS connections. */
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
    {
      name: 'invoice_id',
      title: 'Invoice id',
      type: 'string',
      description: 'Id of the invoice',
      primaryKey: true,
      get: (r) => r.invoice.id,
    },
    ...OWNER_DIMENSIONS,
    {
      name: 'location_id',
      title: 'Hotel id',
      type: 'string',
      description: 'Id of the hotel',
      get: (r) => r.invoice.location_id,
    },
    {
      name: 'location_name',
      title: 'Hotel',
      type: 'string',
      description: 'Name of the hotel',
      get: (r) => r.location,
    },
    {
      name: 'currency',
      title: 'Currency',
      type: 'string',
      description: 'Currency of the invoice',
      get: (r) => r.invoice.currency,
    },
    {
      name: 'creation_date',
      title: 'Invoiced',
      type: 'time',
      description: 'When the invoice was made (check-out)',
      get: (r) => r.invoice.creation_date,
    },
  ],
  relationships: [{ target: 'consumers', relationship: 'many_to_one' }],
  currency: (r) => r.invoice.currency,
  rows: (source) =>
    activeConnections(source, 'Property Management System').flatMap((connection) => {
      const dataset = pmsDatasetOf(source.store, connection);
      const locations = new Map(dataset.locations.map((l) => [l.id, l.name]));
      return Object.values(dataset.invoices).map((invoice) => ({
        invoice,
        consumerid: connection.consumerid,
        connectionid: connection.connectionid,
        location: locations.get(invoice.location_id) ?? null,
        guests: dataset.orders[invoice.order_id]?.guests ?? null,
      }));
    }),
};
