import { connectionDatasetRef } from '../../../platform/datasets.js';
import type { Vertical } from '../../../platform/operation.js';
import type { CommerceDataset } from '../model/commerce.records.js';
import { commerceDatasetOf } from './commerce.domain.js';

/** The eCommerce vertical as its operations see it: the connection's dataset (built in slices first when not in memory). */
export const commerce: Vertical<CommerceDataset> = {
  api: 'eCommerce',
  dataset: (_c, { connection }) => connectionDatasetRef('commerce_datasets', connection),
  open: (c, { connection }) => commerceDatasetOf(c.get('store'), connection),
};
