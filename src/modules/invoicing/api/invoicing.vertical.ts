import { connectionDatasetRef } from '../../../platform/datasets.js';
import type { Vertical } from '../../../platform/operation.js';
import type { InvoicingDataset } from '../model/invoicing.records.js';
import { invoicingDatasetOf } from './invoicing.domain.js';

/** The Invoicing vertical as its operations see it: the connection's dataset, seeded on first use. */
export const invoicing: Vertical<InvoicingDataset> = {
  api: 'Invoicing',
  dataset: (_c, { connection }) => connectionDatasetRef('invoicing_datasets', connection),
  open: (c, { consumer, connection, integration }) =>
    invoicingDatasetOf(
      c.get('store'),
      consumer.consumerid,
      connection.connectionid,
      integration.integrationid,
    ),
};
