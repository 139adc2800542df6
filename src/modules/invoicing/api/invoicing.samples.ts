import { type ConsoleSample, SAMPLE_ROWS } from '../../../platform/console-sample.js';
import { invoicingDatasetOf, listInvoices, toInvoiceItem } from './invoicing.domain.js';
import * as routes from './invoicing.routes.js';

/** What the console shows of a consumer's invoicing data: its first invoices. */
export const invoicingSamples: readonly ConsoleSample[] = [
  {
    api: 'Invoicing',
    title: 'Invoices',
    route: routes.getInvoices,
    columns: ['id', 'invoice_number', 'invoice_type', 'invoice_date', 'status', 'currency', 'total'],
    rows: (c, { consumer, connection, integration }) => {
      const data = invoicingDatasetOf(
        c.get('store'),
        consumer.consumerid,
        connection.connectionid,
        integration.integrationid,
      );
      return listInvoices(data, {})
        .slice(0, SAMPLE_ROWS)
        .map((invoice) => toInvoiceItem(data, invoice, { lines: false, analytic: false }));
    },
  },
];
